"""A command's refusal at launch in the person's language: a wrong setting (`ConfigError`) or an agent of your own
that cannot be loaded (`own_agent.LoadError`), worded from the `key` and `values` the error carries.

The code that raises writes the English (a notebook and `--lang en` read it as it is); here are the other languages'
words for the same keys. An error without a key, or one whose key has no words here, is shown as it is.

    >>> from agentkit.config import ConfigError
    >>> error_for_the_person(ConfigError("MODEL_API_KEY contains spaces or quotes: ...", "key"), "zh")
    'MODEL_API_KEY 里有空格或引号：只填密钥本身，和模型服务商显示的一样'
"""

from __future__ import annotations

ERRORS: dict[str, dict[str, str]] = {
    "zh": {
        # agentkit.config.load_settings
        "no file": "没有找到设置文件 {path}：把 .env.example 复制为 .env，再填写它",
        "recovery": "RECOVER_TEXT_CALLS={value!r} 不是可选的值：应当是 auto、on 或 off 之一（auto：除了 OpenAI 自己的 API，"
                    "对所有服务器都开启）",
        "url": "BASE_URL 不是网址：请填写模型服务商的 OpenAI 兼容接口地址，以 http:// 或 https:// 开头，例如 "
               "https://api.openai.com/v1（README 里有一张表）",
        "variant": "MODEL={value!r} 不是离线模型的变体；应当是其中之一：{known}（或者设置 MODEL_API_KEY，使用真实模型）",
        "key": "MODEL_API_KEY 里有空格或引号：只填密钥本身，和模型服务商显示的一样",
        "model": "没有设置 MODEL：请填写模型服务商的模型名，例如 MODEL=gpt-4o-mini（README 的服务商表格里每一家都有）",
        # agentkit.frontends.own_agent
        "prompt unreadable": "无法读取系统提示词文件 {path}（报错：“{error}”）：请给出一个 UTF-8 文本文件",
        "prompt empty": "系统提示词文件 {path} 是空的：请在里面写下给智能体的说明",
        "spec": "{flag} {spec!r}：请写成 module:{what}（例如 {example}）或 file.py:{what}",
        "import": "{flag} {spec!r}：无法导入 {where}（报错：“{error}”）",
        "no function": "--tools {spec!r}：{module} 里没有函数 {name!r}；它的函数有：{names}",
        "not a registry": "--tools {spec!r} 返回了 {type}：请返回 build_registry([...]) 或一个工具列表",
        "no policy": "--policy {spec!r}：{module} 里没有 {name}；它里面的工具策略：{names}"
                     "（一个也没有的话，请在里面写 POLICY = ToolPolicy(...)）",
        "not a policy": "--policy {spec!r}：{module}.{name} 是 {type}，不是一个 ToolPolicy；它里面的工具策略：{names}"
                        "（一个也没有的话，请在里面写 POLICY = ToolPolicy(...)）",
    },
}
"""language -> key -> words, with {name} filled from the error's `values`; English is the error's own message."""


def error_for_the_person(error: Exception, language: str) -> str:
    """`error`'s message in `language`: worded from its `key` and `values` where we have words for it, else as it is."""
    words = ERRORS.get(language, {}).get(getattr(error, "key", ""))
    return str(error) if words is None else words.format(**getattr(error, "values", {}))
