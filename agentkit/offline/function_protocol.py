"""Step 3, without `tools`: tools described in a system prompt as `FUNCTION:` lines (chapter 01), answered in kind.

The model reads the offered functions out of the prompt's `FUNCTION: name(args)` lines, makes the same
choice as with native tools, and writes the call as the text line the prompt asked for. Like a real model
that is not stopped, it goes on to invent the result: the `stop` sequence is the cure.
"""

from __future__ import annotations

import json
import re

from agentkit.offline import answer
from agentkit.offline.answer import plain_answer
from agentkit.offline.choose import Offer, plan
from agentkit.offline.reading import message_text
from agentkit.offline.reply import Reply
from agentkit.offline.request import parsed


def function_protocol(messages: list[dict]) -> list[Offer] | None:
    """Tools described in a system prompt as `FUNCTION: name(args)` lines, if there are any."""
    system = "\n".join(message_text(m) for m in messages if m["role"] == "system")
    offers = []
    for name, args in dict(re.findall(r"FUNCTION:\s*([A-Za-z_]\w*)\(([^)]*)\)", system)).items():
        lines = " ".join(line for line in system.splitlines() if name in line)
        properties = {arg.strip("\"'"): {"type": "string" if arg[0] in "\"'" else "number"}  # a quoted argument is text
                      for arg in filter(None, (a.strip() for a in args.split(",")))}
        offers.append(Offer(name, lines, {"properties": properties, "required": list(properties)}))
    return offers or None


def protocol_reply(messages: list[dict], offers: list[Offer]) -> Reply:
    """After a `RESULT:` line, an answer from it; otherwise the `FUNCTION:` line the question calls for, if any."""
    previous = messages[-2] if len(messages) > 1 else {}
    if previous.get("role") == "assistant" and "FUNCTION:" in message_text(previous):
        tool, args = re.search(r"FUNCTION:\s*(\w+)\((.*)\)", message_text(previous)).groups()
        offer = next((o for o in offers if o.name == tool), None)
        names = list(offer.schema["properties"] if offer else {})
        values = parsed(f"[{args}]")  # as many as the model wrote, which need not be one per parameter
        if values is None:  # a bare word stays text
            values = [a.strip().strip("\"'") for a in args.split(",") if a.strip()]
        result = re.sub(r"^\s*RESULT:\s*", "", message_text(messages[-1]))
        question = next((message_text(m) for m in reversed(messages[:-2]) if m["role"] == "user"), "")
        return Reply(content=answer.sentences([(tool, dict(zip(names, values, strict=False)), result)], question))
    if not (calls := [p for p in plan(message_text(messages[-1]), offers) if not p.missing]):
        return Reply(content=plain_answer(message_text(messages[-1])))
    args = ", ".join(json.dumps(v) for v in calls[0].arguments.values())
    # Like a real model that is not stopped, it goes on to invent the result: the `stop` sequence is the cure.
    invented = "10:42 AM" if "time" in calls[0].offer.name else "42"
    return Reply(content=f"FUNCTION: {calls[0].offer.name}({args})\nRESULT: {invented}\nThe answer is {invented}.")

