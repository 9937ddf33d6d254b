"""A Chinese question read as the English words the rest of the model understands: a bilingual vocabulary.

"东京现在几点？" becomes "Tokyo now what time ?", "把 100 美元换成人民币" becomes "100 dollars convert to yuan":
tool choice, values and places then work as they do in English. Numerals become digits ("十二" is 12, "两" is
2), times and durations become what an English speaker writes ("上午9点" is "at 09:00", "一个小时" is "for 60
minutes"), and words outside the table stay as they are (a file name in Latin letters, a topic the table does
not know). A tool described in Chinese is read the same way, so a question in either language meets it.

Chinese numbers, measure words and percentages are read first, in `zh_numbers.py`.
"""

from __future__ import annotations

import re
from functools import cache

from agentkit.offline.dates import MONTHS, WEEKDAYS
from agentkit.offline.language import NAME_DOTS, is_chinese
from agentkit.offline.zh_numbers import as_digits, numeral

__all__ = ["WORDS", "english", "numeral"]

DAYS = dict(zip("一二三四五六日天", [d.capitalize() for d in WEEKDAYS + ["sunday"]], strict=True))
"""星期一 ... 星期日 (or 星期天): the weekday's English name."""

# Chinese word -> English words, longest first when read. Places are the English names the zone table knows.
WORDS = {
    # places
    "东京": "Tokyo", "大阪": "Osaka", "纽约": "New York", "伦敦": "London", "巴黎": "Paris", "柏林": "Berlin",
    "上海": "Shanghai", "北京": "Beijing", "广州": "Guangzhou", "深圳": "Shenzhen", "成都": "Chengdu",
    "杭州": "Hangzhou", "南京": "Nanjing", "武汉": "Wuhan", "西安": "Xi'an", "重庆": "Chongqing", "香港": "Hong Kong",
    "台北": "Taipei", "澳门": "Macau", "新加坡": "Singapore", "首尔": "Seoul", "悉尼": "Sydney", "墨尔本": "Melbourne",
    "洛杉矶": "Los Angeles", "旧金山": "San Francisco", "芝加哥": "Chicago", "西雅图": "Seattle", "波士顿": "Boston",
    "多伦多": "Toronto", "温哥华": "Vancouver", "莫斯科": "Moscow", "罗马": "Rome", "马德里": "Madrid",
    "巴塞罗那": "Barcelona", "里斯本": "Lisbon", "阿姆斯特丹": "Amsterdam", "维也纳": "Vienna", "苏黎世": "Zurich",
    "伊斯坦布尔": "Istanbul", "迪拜": "Dubai", "孟买": "Mumbai", "新德里": "New Delhi", "曼谷": "Bangkok",
    "雅加达": "Jakarta", "马尼拉": "Manila", "河内": "Hanoi", "开罗": "Cairo", "内罗毕": "Nairobi",
    "墨西哥城": "Mexico City", "圣保罗": "Sao Paulo", "里约热内卢": "Rio de Janeiro", "布宜诺斯艾利斯": "Buenos Aires",
    "蒙得维的亚": "Montevideo", "利马": "Lima", "奥克兰": "Auckland", "都柏林": "Dublin", "斯德哥尔摩": "Stockholm",
    "奥斯陆": "Oslo", "赫尔辛基": "Helsinki", "雅典": "Athens", "布拉格": "Prague", "华沙": "Warsaw",
    "日本": "Japan", "中国": "China", "美国": "United States", "英国": "United Kingdom", "法国": "France",
    "德国": "Germany", "韩国": "Korea", "印度": "India", "澳大利亚": "Australia", "加拿大": "Canada", "巴西": "Brazil",
    "意大利": "Italy", "西班牙": "Spain", "俄罗斯": "Russia", "埃及": "Egypt", "新西兰": "New Zealand",
    # money and units
    "美元": "dollars", "美金": "dollars", "欧元": "euros", "英镑": "pounds", "日元": "yen", "人民币": "yuan",
    "块钱": "yuan", "块": "yuan", "元": "yuan", "港币": "HKD", "韩元": "KRW", "瑞士法郎": "francs",
    "公里": "km", "千米": "km", "英里": "miles", "厘米": "cm", "毫米": "mm", "米": "meters", "英尺": "feet",
    "英寸": "inches", "公斤": "kg", "千克": "kg", "磅": "pounds", "克": "grams", "毫升": "ml", "升": "liters",
    "加仑": "gallons", "摄氏度": "celsius", "摄氏": "celsius", "华氏度": "fahrenheit", "华氏": "fahrenheit",
    # what is asked
    "几点": "what time", "时间": "time", "时区": "time zone", "日期": "date", "现在": "now", "当前": "current",
    "天气预报": "weather forecast", "天气": "weather", "气温": "temperature", "温度": "temperature", "预报": "forecast",
    "空气质量": "air quality", "日出": "sunrise", "日落": "sunset", "汇率": "exchange rate", "股价": "stock price",
    "股票": "stock", "航班": "flights", "机票": "flights", "酒店": "hotel", "火车": "train", "路线": "route",
    "怎么走": "directions", "新闻": "news", "翻译成": "translate into", "翻译": "translate", "英文": "English",
    "英语": "English", "中文": "Chinese", "日语": "Japanese", "法语": "French", "德语": "German",
    "换算成": "convert to", "兑换成": "convert to", "转换成": "convert to", "换成": "convert to", "转成": "convert to",
    "换算": "convert", "兑换": "convert", "转换": "convert", "等于多少": "in", "是多少": "is how much",
    "读一下": "read", "读取": "read", "读": "read", "打开": "open", "查看": "show", "看看": "show", "显示": "show",
    "内容": "contents", "文件夹": "folder", "目录": "folder", "文件": "files", "列出": "list", "所有": "all",
    "写入": "write", "写到": "write to", "写": "write", "保存到": "save to", "保存": "save", "删除": "delete",
    "改成": "change to", "改为": "change to", "替换成": "replace with", "写进": "write to", "存到": "save to",
    "有几行": "how many lines", "有多少行": "how many lines", "几行": "how many lines", "数": "count", "几": "how many",
    "里写了什么": "what does it say", "写了什么": "what does it say", "里有什么": "what is in",
    "替换": "replace", "修改": "edit", "编辑": "edit", "行数": "lines", "行": "lines", "字数": "characters", "单词": "words",
    "字符": "characters", "字": "characters", "统计": "count", "数一下": "count", "多少": "how many", "几个": "how many",
    "复制": "copy", "重命名": "rename", "运行": "run", "执行": "run", "命令": "command", "终端": "shell", "搜索": "search",
    "搜": "search", "查询": "query",
    "查一下": "look up", "查": "look up", "掷": "roll", "扔": "roll", "投": "roll", "骰子": "dice", "密码": "password",
    "生成": "generate", "随机": "random", "账单": "bill", "平分": "split", "分摊": "split", "均摊": "split",
    "会议室": "meeting room", "开会": "meeting", "会议": "meeting", "提醒我": "remind me to", "提醒": "reminder",
    "待办事项": "to-do list", "待办": "to-do list", "添加": "add", "加到": "add to", "发送": "send", "发": "send",
    "加入": "add to", "加进": "add to", "预警": "alerts",
    "邮件": "email", "短信": "text message", "消息": "message", "笔记": "note", "定时器": "timer", "计时器": "timer",
    "倒计时": "countdown", "闹钟": "alarm", "食谱": "recipe", "菜谱": "recipe", "份": "servings", "平方根": "square root",
    "面积": "area", "距离": "distance", "城市": "city", "名称": "name", "地点": "location", "位置": "location",
    "金额": "amount", "数量": "count", "单位": "unit", "代码": "code", "币种": "currency", "货币": "currency",
    "原": "from", "目标": "target", "天数": "days", "人数": "people", "人": "people", "位": "characters",
    "今天": "today", "明天": "tomorrow", "后天": "the day after tomorrow", "昨天": "yesterday", "今晚": "tonight",
    "下周": "next week", "未来": "next", "天": "days", "周": "weeks",
    "计算": "calculate", "算一下": "calculate", "多少钱": "how much", "价格": "price", "价钱": "price",
    "比特币": "bitcoin", "以太坊": "ethereum", "人口": "population", "国家": "country", "首都": "capital",
    "邮箱": "email", "日历": "calendar", "安排": "schedule", "预订": "book", "预定": "book", "订": "order",
    "餐厅": "restaurant", "附近": "near", "咖啡馆": "cafe", "咖啡店": "cafe", "药店": "pharmacy", "医院": "hospital",
    "超市": "supermarket", "电影": "movie", "播放": "play", "歌曲": "song", "音乐": "music", "定义": "definition",
    "意思": "meaning", "同义词": "synonyms", "拼写": "spelling", "检查": "check", "大写": "uppercase",
    "小写": "lowercase", "包裹": "package", "快递": "package", "追踪": "track", "跟踪": "track", "停车": "parking",
    "研究": "research", "助手": "helper", "交给": "hand to", "比较": "compare", "最便宜": "cheapest",
    "计划": "plan", "步骤": "step", "步": "step", "标记为": "mark as", "标记": "mark", "进行中": "in progress",
    "完成": "done", "浇水": "water", "花园": "garden", "任务": "task", "优先级": "priority", "高优先级": "high priority",
    "做完": "done", "勾掉": "tick off", "划掉": "cross off", "盎司": "ounces", "杯": "cups",
    "体重": "weight", "身高": "height", "卡路里": "calories", "热量": "calories", "跑步": "running",
    "骑车": "cycling", "游泳": "swimming", "利息": "interest", "利率": "interest rate", "贷款": "loan",
    "本金": "principal", "小费": "tip", "折扣": "discount", "税": "tax", "阶乘": "factorial", "质数": "prime",
    "素数": "prime", "最大公约数": "greatest common divisor", "平均数": "average", "平均": "average",
    "百分比": "percent", "三角形": "triangle", "圆": "circle", "半径": "radius", "大号": "large", "中号": "medium",
    "小号": "small", "披萨": "pizza", "购物车": "cart", "叫我起床": "wake me up", "起床": "wake up", "记录": "log",
    "网页": "web", "网上": "web", "年": "years", "月": "months", "星期": "weeks",
    # everyday requests: spending, home, travel, bookings
    "花了": "spent", "花费": "spent", "支出": "expense", "开销": "expense", "开支": "expense", "消费": "spending",
    "记一笔": "log", "记账": "log expense", "记下": "log", "记": "log", "餐饮": "food", "吃饭": "meal",
    "午饭": "lunch", "午餐": "lunch", "晚饭": "dinner", "晚餐": "dinner", "早饭": "breakfast", "早餐": "breakfast",
    "交通": "transport", "打车": "taxi", "出租车": "taxi", "地铁": "subway", "公交": "bus", "购物": "shopping",
    "衣服": "clothes", "娱乐": "entertainment", "医疗": "health", "药": "medicine", "房租": "rent", "喝了": "drank",
    "喝": "drink", "水": "water", "加油": "fuel", "汽油": "fuel", "油": "fuel", "调到": "set to", "调成": "set to",
    "设成": "set to", "设到": "set to", "设置": "set", "度": "degrees", "卧室": "bedroom", "客厅": "living room", "桌子": "table",
    "厨房": "kitchen", "书房": "study", "浴室": "bathroom", "后院": "back yard", "前院": "front yard",
    "温室": "greenhouse", "租车": "rent car", "租": "rent", "车型": "car type", "车": "car", "取消掉": "cancel",
    "取消": "cancel", "预约": "appointment", "晚上": "evening", "晚": "nights", "住": "stay", "电影票": "movie tickets",
    "火车票": "train tickets", "票": "tickets", "场次": "showtime", "那场": "", "专注": "focus", "计时": "timer",
    "番茄钟": "pomodoro timer", "开始": "start", "标签": "label", "订位": "book table", "订座": "book table",
    "座位": "seat", "位子": "table", "就餐": "dining", "数值": "value", "时长": "duration", "分钟": "minutes",
    "类别": "category", "类型": "type", "备注": "note", "量": "amount", "每人": "per person", "每": "per",
    "股票代码": "ticker symbol", "快递单号": "tracking number", "单号": "number", "出发": "departure",
    "到达": "arrival", "去": "to", "买": "buy", "最新": "latest", "版本": "version", "上": "",
    "取车": "pick up car", "好处": "benefits", "坏处": "harm", "影响": "effect", "合适": "appropriate",
    "发明": "invented", "空调": "air conditioner", "消耗": "burned", "燃烧": "burned",
    # everyday life: food and drink, home, health, money, travel, study and work
    "咖啡": "coffee", "拿铁": "latte", "美式": "americano", "奶茶": "milk tea", "茶": "tea", "果汁": "juice",
    "大杯": "large", "中杯": "medium", "小杯": "small", "外卖": "takeout", "点": "order", "来": "", "这": "",
    "借书": "borrow book", "还书": "return book", "借": "borrow", "书": "book", "图书馆": "library",
    "订阅": "subscribe", "套餐": "plan", "高级": "premium", "标准": "standard", "基础": "basic", "会员": "membership",
    "停车费": "parking fee", "车牌号": "licence plate", "车牌": "licence plate", "费": "fee", "交": "pay",
    "灯": "lights", "亮度": "brightness", "音量": "volume", "电视": "TV", "窗帘": "curtains", "关掉": "turn off",
    "关闭": "turn off", "阅读清单": "reading list", "阅读": "reading", "清单": "list",
    "作者是": "the author is", "作者": "author", "哪些": "which", "多远": "how far", "健身": "gym fitness",
    "课程": "course", "课": "class", "高": "high", "低": "low",
    "瑜伽": "yoga", "体温": "body temperature", "血压": "blood pressure", "步数": "steps", "睡眠": "sleep",
    "工资": "salary", "收入": "income", "存款": "savings", "转账": "transfer", "余额": "balance", "银行": "bank",
    "信用卡": "credit card", "账户": "account", "预算": "budget", "房间": "room", "入住": "check in",
    "退房": "check out", "护照": "passport", "签证": "visa", "行李": "luggage", "航班号": "flight number",
    "高铁": "high-speed train", "飞机": "plane", "作业": "homework", "考试": "exam", "报告": "report",
    "项目": "project", "截止": "deadline", "文档": "document", "打电话": "call", "电话": "phone", "联系人": "contact",
    "关于": "about", "最近": "recent", "最新的": "latest",
    # how it is asked
    "什么是": "what is", "是什么": "what is", "为什么": "why", "怎么样": "how is", "如何": "how", "谁": "who",
    "那": "and", "呢": "", "和": "and", "与": "and", "跟": "and", "还有": "and", "然后": "then", "再": "then",
    "并且": "and", "以及": "and", "使用": "use", "用": "use", "通过": "through",
    "告诉我": "tell me", "帮我": "", "有什么": "what", "我": "", "有": "", "请": "please", "一下": "", "的": "", "把": "",
    "在": "in", "到": "to", "从": "from", "给": "to", "里": "", "中": "", "吗": "", "了": "", "个": "", "是": "is",
}


QUOTES = re.compile(r"“([^”]*)”|《([^》]*)》|\"([^\"]*)\"")
"""Quoted text and titles: kept aside while the rest is read, put back as written."""
BA = re.compile(r"把\s*([^\s“”\"'，。][^“”\"'，。]*?)\s*(写到|写入|写进|保存到|存到|追加到|加到)")
"""The 把 construction with an unquoted object: "把 X 写到 Y" is "write X to Y"."""
FILE = re.compile(r"(?<![\w./@:-])[\w./-]*?\.[A-Za-z][A-Za-z0-9]{0,4}(?![A-Za-z0-9_/@])")
"""A file name ("笔记.txt", "读一下日记.txt", "config.yaml"): a value as written, its words never read."""
BEFORE_FILE = re.compile(r".*(?:读一下|读取|查看|看看|打开|显示|写到|写入|写进|保存到|存到|加到|删除|数一下|统计|替换|换成|"
                         r"[把在往给从的里读写到])(?=.)")
"""What may be glued before a file name: the verb or the word that links it ("把笔记.txt" is 笔记.txt)."""
_VALUE = r"\s*[:：]?\s*([^\s“”\"'，。：:][^“”\"'，。]*?)\s*"
EDITS = [  # "把 X 重命名为 Y" (a second file stays a file, read first); "把 X 里的 A 换成 B", "替换 X 里的 A 为 B";
    # "在 X 末尾加一行：A", "再加一行：A" (the file of the last call); "往 X 里写入：A", "创建 X，内容是 A"; "在 X 里搜索 A"
    (re.compile(r"把\s*(?P<file>\x00\d+\x00)(?P<file2>)\s*(重命名|改名|移动|挪|复制|拷贝)[为成到叫]?\s*(\x00\d+\x00)"),
     " {0} {file} to {1} "),
    (re.compile(rf"(?:在\s*(?P<file>\x00\d+\x00)\s*[里中]?\s*[把将]|(?:[把将]|替换|修改)\s*(?P<file2>\x00\d+\x00)\s*[里中]?的?)"
                rf"{_VALUE}(?:换成|替换成|替换为|改成|改为|为|成){_VALUE}(?=[。！!]?$)"), " replace {0} with {1} in {file} "),
    (re.compile(rf"(?:[在往给向]\s*(?P<file>\x00\d+\x00)\s*(?:的?(?:末尾|最后|结尾|后面))?|(?P<file2>))\s*[再还]?"
                rf"(?:加上?|添加|追加|增加|写上?)\s*一行{_VALUE}$"), " add a line into {file}: {0} "),
    (re.compile(rf"[往在向]\s*(?P<file>\x00\d+\x00)\s*[里中]?(?P<file2>)\s*(?:写入|写上|写进|写|保存|存入){_VALUE}$"),
     " write {0} to {file} "),
    (re.compile(rf"(?:(?:创建|新建)(?:一个)?(?:文件)?\s*)?(?P<file>\x00\d+\x00)(?P<file2>)\s*[，,]?\s*(?:的?内容(?:是|为)|"
                rf"(?:里面?)?(?:写上|写入|写着))(?!\s*(?:什么|啥)){_VALUE}$"), " write {0} to {file} "),
    (re.compile(rf"在\s*(?P<file>\x00\d+\x00)(?P<file2>)\s*[里中]?\s*(?:搜索|查找|找一下|找){_VALUE}$"),
     " search for {0} in {file} "),
]
MOVES = {"重命名": "rename", "改名": "rename", "移动": "move", "挪": "move", "复制": "copy", "拷贝": "copy"}


def english(text: str) -> str:
    """The text with its Chinese read as English words, and a number glued to its unit parted ("250ml" "250 ml")."""
    text = _glued_unit().sub(r"\1 \2", text)
    if not is_chinese(text):
        return text
    # "把 你好 写到 hi.txt": the object comes before the verb; kept aside and quoted, it stays one value as written
    kept: list[str] = []
    # a quoted text or a title in 《》 is a value as written: its numerals and words are not read ("《三体》")
    text = QUOTES.sub(lambda m: _kept(next(g for g in m.groups() if g is not None), kept, '"'), text)
    text = re.sub(r"(\.[A-Za-z][A-Za-z0-9]{0,4})(?=[\u4e00-\u9fff])", r"\1 ", text)  # "笔记.txt移到…": the name ends
    text = FILE.sub(lambda m: _kept_file(m.group(0), kept), text)
    for pattern, english_words in EDITS:
        text = pattern.sub(lambda m, said=english_words: said.format(
            *(MOVES.get(v) or v if v in MOVES or "\x00" in v else _kept(v, kept, "" if "search" in said else '"')
              for v in m.groups()[2:]),
            file=m.group("file") or m.group("file2") or "it"), text)
    text = BA.sub(lambda m: kept.append(m.group(1)) or f' {WORDS[m.group(2)].split()[0]} "\x00{len(kept) - 1}\x00" to ', text)
    text = re.sub(r"下个?(?:周|星期|礼拜)([一二三四五六日天])", lambda m: f" next {DAYS[m.group(1)]} ", text)
    text = re.sub(r"(这|本)?(?:周|星期|礼拜)([一二三四五六日天])",
                  lambda m: f" {'this ' if m.group(1) else ''}{DAYS[m.group(2)]} ", text)
    text = re.sub("|".join(RELATIVE_DAYS), lambda m: f" {RELATIVE_DAYS[m[0]]} ", text)
    # "生成一个十六位的密码": one password; "订一张4个人的桌子": one table, for 4
    text = re.sub(r"一下|一[个张份间](?=\s*[零〇一二两三四五六七八九十百千\d])", " ", text)
    # "A 和 B 都记上": "都" before a verb is "all", not a word of B
    text = re.sub(r"(?<=\S)都(?=\s*(?:加|记|放|写|添|存|设|提醒|发|买|订|查))", " ", text)
    # "关于人工智能的新闻": the thing comes last in Chinese, "news about 人工智能" in English, where a topic is looked for
    text = re.sub(r"关于([^，。？！\s的]+)的([^，。？！\s的]+)", r" \2 about \1 ", text)
    text = as_digits(text)  # "三百毫升" "300 ml", "百分之十五" "15%", "三张票" "3 票"
    text = _times_and_durations(text)  # "3点和 Lina 开会", "跟小王吃饭": after a time or a clause's start, 和/跟 is "with"
    text = re.sub(r"((?:\d:\d\d|^|[，,：:])\s*)[和跟与]", r"\1 with ", text)
    text = re.sub(r"第\s*(\d+)\s*([行项条])", lambda m: f" {'line' if m[2] == '行' else 'item'} {m[1]} ", text)  # 第二行, 第一项
    text = _vocabulary().sub(_read_word, text)
    text = text.replace("，", " , ").replace("。", " . ").replace("？", " ? ").replace("！", " ! ").replace("、", " , ")
    text = text.replace("：", ": ").replace("“", ' "').replace("”", '" ')
    text = re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], text)
    return re.sub(r"\s+", " ", text).strip()


def _kept(value: str, kept: list[str], quote: str = "") -> str:
    """A value set aside as written (put back after the words are read), and the mark that stands for it."""
    kept.append(value)
    return f" {quote}\x00{len(kept) - 1}\x00{quote} "


def _kept_file(found: str, kept: list[str]) -> str:
    """ "读一下日记.txt": the verb glued before the file name is read as a word, the name kept as written."""
    stem, dot, extension = found.rpartition(".")
    glued = BEFORE_FILE.match(stem)
    return (stem[: glued.end()] if glued else "") + _kept(stem[glued.end() if glued else 0:] + dot + extension, kept)


def _times_and_durations(text: str) -> str:
    """ "下午3点半" -> "at 15:30", "一个半小时" -> "for 90 minutes", "三个六面骰子" -> "3 dice with 6 sides"."""
    def clock(m: re.Match) -> str:
        hour, minute = int(m.group(2)), (30 if m.group(3) == "半" else int(m.group(4) or 0))
        hour += 12 if m.group(1) in ("下午", "晚上", "傍晚", "今晚", "明晚") and hour < 12 else 0
        day = {"今晚": " tonight", "明晚": " tomorrow"}.get(m.group(1) or "", "")
        return f"{day} at {hour:02d}:{minute:02d} "

    text = re.sub(r"(上午|早上|中午|下午|晚上|傍晚|今晚|明晚)?\s*(\d{1,2})\s*[点時时]\s*(?:(半)|(\d{1,2})\s*分?)?", clock, text)
    hours = r"(\d+)\s*个?(半)?\s*(?:小时|钟头)"
    text = re.sub(hours, lambda m: f" for {int(m.group(1)) * 60 + (30 if m.group(2) else 0)} minutes ", text)
    text = re.sub(r"半\s*个?\s*(?:小时|钟头)", " for 30 minutes ", text)
    text = re.sub(r"(\d+)\s*分钟", r" for \1 minutes ", text)
    text = re.sub(r"(\d+)\s*秒钟?", r" for \1 seconds ", text)
    text = re.sub(r"(\d+)\s*个?\s*(\d+)\s*面的?\s*骰子?", r" \1 dice with \2 sides ", text)
    return _days(text)


RELATIVE_DAYS = {"大后天": "in 3 days", "下个月": "next month", "下个星期": "next week", "周末": "weekend"}
"""Days said relative to today, read after the weekdays ("下个星期三" is next Wednesday, "下个星期" next week)."""


def _days(text: str) -> str:
    """ "12月25日" -> "December 25", "三天后" -> "in 3 days", "两周以后" -> "in 2 weeks"."""
    text = re.sub(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]", lambda m: f" {MONTHS[int(m.group(1)) - 1].capitalize()} "
                  f"{int(m.group(2))} " if 1 <= int(m.group(1)) <= 12 else m.group(0), text)
    units = {"天": "days", "周": "weeks", "星期": "weeks", "礼拜": "weeks", "月": "months"}
    return re.sub(r"(\d+)\s*个?\s*(天|周|星期|礼拜|月)\s*(?:以后|之后|后)", lambda m: f" in {m.group(1)} {units[m.group(2)]} ",
                  text)


LINKING = {"", "in", "to", "from", "and", "is", "please", "then", "use", "what", "per"}
"""What single characters such as 在, 到, 把, 的 read as: they link words, and never start a compound word."""


def _read_word(match: re.Match[str]) -> str:
    """A word of the table in English, unless it is one character that starts a word the table does not know:
    "周会" (the weekly meeting) is not "weeks" and "会", "写论文" keeps 论文 with its verb; 在, 到, 的 always link."""
    from agentkit.offline.spans import UNITS  # spans reads numbers; this only needs its unit words
    word, text, start, end = match.group(0), match.string, match.start(), match.end()
    # "5克盐": a character after a number is its unit, whatever follows; "大米" is rice: a unit after a character
    # that ends no word of the table is inside a word (but "多少米" asks in meters)
    unknown_next = end < len(text) and is_chinese(text[end]) and not _vocabulary().match(text, end) or \
        WORDS[word] in UNITS and is_chinese(text[start - 1:start]) and not any(
            (m := _vocabulary().match(text, start - n)) and m.end() == start for n in range(2, min(start, 6) + 1))
    in_a_name = text[end:end + 1] in NAME_DOTS or text[start - 1:start] in NAME_DOTS
    if len(word) == 1 and (WORDS[word] not in LINKING and unknown_next and not text[:start].rstrip()[-1:].isdigit()
                           or in_a_name):
        return word  # "弗兰克·赫伯特" is a name: its 克 is not grams
    return f" {WORDS[word]} "


@cache
def _vocabulary() -> re.Pattern[str]:
    return re.compile("|".join(re.escape(word) for word in sorted(WORDS, key=len, reverse=True)))


@cache
def _glued_unit() -> re.Pattern:
    """ "250ml", "5km", "70kg": a number written against a unit of two letters or more (never "3pm" or "4d6")."""
    from agentkit.offline.spans import UNITS  # spans reads numbers; this only needs its unit words
    units = "|".join(sorted((u for u in UNITS if len(u) > 1), key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(\d+(?:\.\d+)?)({units})\b", re.IGNORECASE)

