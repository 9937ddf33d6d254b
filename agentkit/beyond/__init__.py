"""The optional third part (chapter 14): an agent used as a tool (`subagents`), a plan kept through a tool (`plans`).

Each module imports alone; nothing here is re-exported from `agentkit`, whose core stays within its budget."""
