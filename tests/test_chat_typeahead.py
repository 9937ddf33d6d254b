"""Keys typed before a question appears cannot answer it: `agentkit chat` asks for a fresh answer (in a pty)."""

from test_cli_chat import ask, start_chat

from agentkit.offline import Faults, OfflineModel, OfflineServer

MODEL_DELAY = 1.5
"""Seconds the model takes to reply: the window in which the person types ahead."""


def test_a_yes_typed_before_the_confirmation_appears_does_not_answer_it(tmp_path):
    with OfflineServer(OfflineModel(), Faults(delay=MODEL_DELAY)) as server:
        child = start_chat(tmp_path, "--workspace", "files", MODEL_API_KEY="any", MODEL="offline",
                           BASE_URL=server.base_url)
        child.sendline('Run the bash command "touch typed-ahead.txt"')
        child.sendline("y")  # while the model is still thinking: no question is on the screen yet
        child.expect_exact("[y/N] ")
        printed = ask(child, "n")  # the question waited for this answer: the early "y" was thrown away
        assert printed.startswith("  <- You declined: bash touch typed-ahead.txt")
        assert not (tmp_path / "files" / "typed-ahead.txt").exists()
        child.sendline("/exit")
        child.expect_exact("bye")
