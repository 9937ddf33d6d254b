"""Part of step 1: a request told once for several calls, read as one copy of it per call.

"Book inductions at Leith at 6pm: one for me, Fiona Grant, and one for my husband Euan" tells a head, then a part per
call; "给小王和小李都发个短信" names the items of one verb. Each copy is planned as a question of its own, and the copies are
kept only when each is one whole call: the request read whole (`clauses.py`) is otherwise the better reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import takewhile

from agentkit.offline.language import is_chinese
from agentkit.offline.lexicon import words
from agentkit.offline.phrases import cut
from agentkit.offline.roles import role_of
from agentkit.offline.spans import NUMBER_WORDS
from agentkit.offline.zh_numbers import numeral
from agentkit.offline.zh_values import RUNS

_WORDS = words("choose")["clauses"]
ZH_JOIN, ZH_EACH = _WORDS["zh_joiners"], re.compile(_WORDS["zh_each"])
PARTS, PART_LEAD, SHARED = (re.compile(_WORDS[n], re.I) for n in ("parts", "part_lead", "shared"))
COUNT = re.compile(r"\b(two|three|four|[2-4])\s+(?=[a-z])|([两二三四2-4])(?:个|份|台|辆|张|位)", re.I)  # "two cakes", "两个"


def zh_items(question: str) -> Iterator[tuple[list[str], list[str]]]:
    """ "给小王和小李都发个短信" -> (["小王", "小李"], ["给小王发个短信", "给小李发个短信"]): the items of a list of Chinese
    words and the question once per item, its 都 gone; for each reading of where the first item starts and the last ends
    (two, three or four characters, the first and the last as long, as Chinese pairs them: "关窗和锁门"). The caller
    keeps the reading whose copies are each one whole call."""
    joins = [m.start() for m in re.finditer(rf"(?<=[\u4e00-\u9fff])[{ZH_JOIN}](?=[\u4e00-\u9fff])", question)]
    for first, last in ((at, at) for at in joins):  # each join, with the joins after it that a short item apart
        while (more := [j for j in joins if j > last]) and re.fullmatch(r"[\u4e00-\u9fff]{1,4}", question[last + 1:more[0]]):
            last = more[0]
        middle = re.split(f"[{ZH_JOIN}]", question[first + 1:last]) if last > first else []
        for ahead, after in ((size, size) for size in range(2, 5)):
            start, end = first - ahead, last + 1 + after
            items = [question[start:first], *middle, question[last + 1:end]]
            if start >= 0 and all(re.fullmatch(rf"[^\W\d{ZH_JOIN}]+", item) for item in items):
                yield items, [question[:start] + item + ZH_EACH.sub("", question[end:], count=1) for item in items]


def parted(question: str, whole: list, read: Callable[[str], list]) -> list:
    """The calls of a request told once for several calls, each read by `read` from a copy of the question: after its head,
    a part per call ("Book inductions at Leith at 6pm: one for me, Fiona Grant, and one for my husband Euan"); in Chinese,
    an item per call ("给小王和小李都发个短信"). None unless each copy is one whole call."""
    return _by_parts(question, whole, read) or (_zh_each(question, whole, read) if is_chinese(question) else [])


def _zh_each(question: str, whole: list, read: Callable[[str], list]) -> list:
    """For the first reading of `zh_items` whose copies are each one whole call with its item in a value, when the
    `whole` question makes fewer or puts the items in one value; none where a value holds them as a list or one text
    ("邀请小王和小李", "内容是鸡蛋和牛奶")."""
    for items, copies in zh_items(question):
        holding = [(c, n) for c in whole for n, v in c.arguments.items() if all(item in str(v) for item in items)]
        if any(isinstance(c.arguments[n], list) or role_of(n, c.offer.schema["properties"][n])[0] in RUNS["whole"]
               for c, n in holding):
            return []
        calls = list(takewhile(bool, (p[0] if len(p) == 1 and not p[0].missing else None for p in (
            read(copy) for copy in copies))))  # read no further than the first copy that is not one whole call
        if len(calls) == len(copies) == len({(c.offer.name, repr(c.arguments)) for c in calls}) and all(
                any(item in str(v) for v in c.arguments.values()) for c, item in zip(calls, items, strict=True)) and (
                len(whole) < len(calls) or holding):  # each item a value of its own call ("我住和平街" lists none)
            return calls
    return []


def _by_parts(question: str, whole: list, read: Callable[[str], list]) -> list:
    """ "Book inductions at Leith at 6pm: one for me, Fiona Grant, and one for my husband Euan Grant" -> the calls of
    "Book inductions at Leith at 6pm, for me, Fiona Grant" and "..., for my husband Euan Grant": the question once per part
    after its head (a colon or a question mark ends it), with the parts said for every call ("Half an hour each"), its
    count ("two cakes") gone, or for the items its head lists ("空调和油烟机都要清洗：空调两台，油烟机一台"), the head said
    of the part's item alone; when the calls are of one tool and differ in a value each gives its own way, and are no
    fewer than the `whole` question's, or those lack a value."""
    if not (head := re.match(r"(.+?)\s*[:：?？]\s*(?=\S)", question)):
        return []
    rest, (items, copies) = question[head.end():], next(zh_items(head[1]), ((), ()))
    rest = re.sub(rf"[，,](?=(?:{'|'.join(map(re.escape, items))}))", "；", rest) if items else rest  # a part per item listed
    parts = [p.strip(" ,，.。") for p in PARTS.split(rest) if re.search(r"\w", p)]
    own, shared = [PART_LEAD.sub("", p) for p in parts if not SHARED.search(p)], [p for p in parts if SHARED.search(p)]
    count = (counted := COUNT.search(head[1])) and (counted[1] or counted[2]).lower()
    told = count and (int(NUMBER_WORDS.get(count, 0)) or (int(count) if count.isdigit() else numeral(count)))
    lead = cut(head[1], [counted.span()]) if told == len(own) else head[1]
    # a request the whole question reads as one whole call is read in parts only where it says so: a count, the items of
    # its head, "one for ...", or parts listed after ";" (else no copy is read)
    said = told or items or any(PART_LEAD.match(p) for p in parts) or re.search("[;；]", rest)
    if len(own) < 2 or len(whole) == 1 and not whole[0].missing and not said:
        return []
    comma, alone = "，" if is_chinese(question) else ", ", dict(zip(items, copies, strict=True))  # the head of one item
    planned = [read(comma.join([next((c for i, c in alone.items() if part.startswith(i)), lead), part, *shared]))
               for part in own]
    calls = [p[0] for p in planned if len(p) == 1 and not p[0].missing]
    differ = [n for n in calls[0].arguments if len({repr(c.arguments.get(n)) for c in calls} - {"None"}) == len(calls)] if (
        len(calls) == len(own)) else []  # a value each part says its own way, not one part's extra detail
    # ... and, as many as the whole question's calls, only where those say one value twice that the parts say apart
    alike = any(len({repr(c.arguments.get(n)) for c in whole}) < len(whole) for n in differ)
    return calls if differ and len({c.offer.name for c in calls}) == 1 and (any(p.missing for p in whole) or len(
        whole) < len(calls) or len(whole) == len(calls) and alike) else []
