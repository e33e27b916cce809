"""What the command-line tests share: running `handrank` in-process, reading its tables, and
replaying the `$ python -m handrank ...` sessions of docs/cli.md, so the page stays true (each
command's output must be exactly what the page shows)."""
import io
import re
import shlex
import sys

import doc_pages
from handrank.cli import main

MERGED = " 2>&1; echo $?"      # a session showing stderr, stdout and the exit status


def run(capsys, *argv, stdin=None, monkeypatch=None):
    """(exit status, stdout, stderr) of `handrank *argv`, with `stdin` as standard input."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def table(out: str) -> list[list[str]]:
    """The lines of a table split on runs of two or more spaces."""
    return [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]


def sessions(subcommand: str) -> list[tuple[str, str]]:
    """(command, output) of every `$ ...` in the code blocks of the subcommand's section."""
    section = doc_pages.read("cli.md").split(f"## `handrank {subcommand}`", 1)[1]
    section = section.split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"^```\n(.*?)^```", section, flags=re.S | re.M):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            found.append((command, output.rstrip("\n")))
    return found


def replay(subcommand: str, capsys, tmp_path, monkeypatch) -> None:
    """Run every session of the section in tmp_path (`cat F` sessions write F; `printf 'TEXT' |`
    before a command gives it TEXT as stdin) and compare."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "80")        # argparse wraps usage lines to the terminal
    found = sessions(subcommand)
    assert len(found) >= 10
    for command, expected in found:
        if command.startswith("cat "):
            (tmp_path / command.split()[1]).write_text(expected + "\n", encoding="utf-8")
            continue
        if command.startswith("printf "):
            printf, _, command = command.partition(" | ")
            text = shlex.split(printf)[1].encode().decode("unicode_escape")
            monkeypatch.setattr(sys, "stdin", io.StringIO(text))
        merged = command.endswith(MERGED)
        argv = shlex.split(command.removesuffix(MERGED))
        assert argv[:4] == ["python", "-m", "handrank", subcommand], command
        status = main(argv[3:])
        out, err = capsys.readouterr()
        got = f"{err}{out}{status}" if merged else out
        assert (status == 0) or merged, command
        assert got.rstrip("\n") == expected, command
