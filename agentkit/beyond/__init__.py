"""The optional third part: an agent used as a tool (`subagents`), a plan kept through a tool (`plans`), both chapter
14; a task's events as OpenTelemetry spans (`tracing`, chapter 15, which needs the `traces` extra).

Each module imports alone; nothing here is re-exported from `agentkit`, whose core stays within its budget."""
