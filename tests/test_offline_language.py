from agentkit.offline.language import is_chinese, language_of


def test_a_han_character_makes_the_message_chinese():
    assert language_of("东京现在几点？") == "zh"
    assert language_of("把 notes.txt 读一下") == "zh"
    assert is_chinese("把 notes.txt 读一下")


def test_latin_text_is_english():
    assert language_of("What time is it in Tokyo?") == "en"
    assert language_of("") == "en"
    assert not is_chinese("café, naïve, Zürich")
