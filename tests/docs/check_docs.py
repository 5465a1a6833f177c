#!/usr/bin/env python3
"""What the docs say is tested: README.md and docs/*.md against dynascope-cli.

    check_docs.py commands    --cli CLI --root ROOT   every dynascope-cli line in a code block runs
    check_docs.py cli-options --cli CLI --root ROOT   every option of each --help is in docs/cli.md
    check_docs.py images      --root ROOT             every image the pages name is made by
                                                      scripts/screenshots.sh, exists and has
                                                      the size that script declares
    check_docs.py screenshots --bin DIR --root ROOT   scripts/screenshots.sh runs (into a
                                                      scratch folder) and makes each picture at
                                                      its declared size

commands. Every line in a fenced or indented code block of README.md and docs/*.md whose first
word is dynascope-cli (or a path ending in /dynascope-cli; a leading `$ `, `/usr/bin/time ...`
or VAR=value is allowed) is one of:

- a synopsis (it holds `[-`, `...` or `a|b`): the command exists, `COMMAND --help` exits 0 and
  names every option the synopsis names;
- `record` or `probe` running a program: these need a program (and torch), so they are checked
  with `--help` only, as a synopsis is, and the test says so (`probe --report DIR` runs);
- any other line: run from the repository root with the placeholders below replaced, standard
  input from resources/examples/example.log unless the line redirects it (`< FILE`), outputs
  (`-o FILE`) written into a temporary folder. It must exit 0, or the status its comment gives
  (`# exits 3: ...`); a line run with -o and exit 0 must have written its file.

A line that starts with `$ ` in a code block is a command whose output follows, up to the next
`$ ` line or the end of the block: every line shown (a line `...` skips) must appear in what the
command printed (stdout, then stderr), in that order, trailing spaces aside.

Placeholders (whole words of the command line; an unknown all-capitals word is an error):
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

RECORDED = "tests/scenarios/recorded/torch-2.13.0"
EXAMPLE = "resources/examples/example.log"

# Input placeholders -> real inputs (relative to the repository root).
INPUTS = {
    "PATH": EXAMPLE,
    "PATH...": EXAMPLE,
    "TRACE": EXAMPLE,
    "FILE": EXAMPLE,  # as an input; after -o it is an output (OUTPUT_WORDS)
    "FILE.zst": f"{RECORDED}/example/dedicated_log_torch_trace.log.zst",
    "A": f"{RECORDED}/graph_break_print/without_print",
    "B": f"{RECORDED}/graph_break_print",
    "ID": "[3/1]",
    "/tmp/trace": f"{RECORDED}/example",
    "/tmp/tt": f"{RECORDED}/example",
    "run.txt": f"{RECORDED}/example/torch_logs.txt.zst",
    "COMMAND": "summary",
    "BYTES": "1000000000",
}
# Option values: "--option WORD" -> value.
OPTION_VALUES = {
    ("--run", "N"): "1",
    ("--width", "N"): "720",
    ("--fail-on", "LIST"): "graph-breaks,recompiles,failures,compile-time=20%",
    ("--report", "DIR"): "tests/probe/recorded/torch-2.13.0/perturbed_backend",
}
OUTPUT_OPTIONS = ("-o", "--output")
COMMANDS = ("summary", "diagnose", "why", "guards", "report", "diff", "export", "record", "probe")
RUNS_A_PROGRAM = ("record", "probe")

__doc__ += "".join(f"    {k:<12} {v}\n" for k, v in INPUTS.items())
__doc__ += "".join(f"    {o + ' ' + w:<12} {v}\n" for (o, w), v in OPTION_VALUES.items())
__doc__ += "    -o X         TMP/basename(X): an output (-o - stays standard output); when X is\n"
__doc__ += "                 also an input of the line, both are a copy of it in TMP\n"

SYNOPSIS = re.compile(r"\[-|\.\.\.|\S\|\S")
EXIT_COMMENT = re.compile(r"\bexits?(?: with)?(?: status)? (\d+)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z0-9_]*(\.\.\.)?$")


@dataclass
class DocCommand:
    doc: str
    line: int
    text: str  # as written, continuation lines joined
    output: list[str] = field(default_factory=list)  # the lines shown after a `$ ` command
    transcript: bool = False

    def where(self) -> str:
        return f"{self.doc}:{self.line}: {self.text}"


def pages(root: Path) -> list[Path]:
    return [root / "README.md"] + sorted((root / "docs").glob("*.md"))


def code_lines(path: Path) -> Iterator[tuple[int, str, int]]:
    """(line number, text, block id) of every line inside a fenced or indented code block."""
    lines = path.read_text(encoding="utf-8").split("\n")
    fence: str | None = None
    fence_indent = 0  # a fence inside a list item: its lines lose that much indentation
    block = 0
    previous_blank = True
    in_indented = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
                block += 1
            else:
                indent = len(line) - len(line.lstrip(" "))
                yield number, line[min(indent, fence_indent):], block
            continue
        if stripped.startswith("```") or stripped.startswith("~~~"):
            fence = stripped[:3]
            fence_indent = len(line) - len(line.lstrip(" "))
            block += 1
            in_indented = False
            continue
        if line.startswith("    ") or line.startswith("\t"):
            if in_indented or previous_blank:
                if not in_indented:
                    block += 1
                in_indented = True
                yield number, line[4:] if line.startswith("    ") else line[1:], block
                previous_blank = False
                continue
        elif stripped:
            in_indented = False
        previous_blank = not stripped


def is_cli_word(word: str) -> bool:
    return word == "dynascope-cli" or word.endswith("/dynascope-cli")


def strip_prefix(tokens: list[str]) -> tuple[dict[str, str], list[str]] | None:
    """VAR=value and /usr/bin/time [-v] [-f FMT] before dynascope-cli; None when no CLI word."""
    env: dict[str, str] = {}
    i = 0
    while i < len(tokens) and not is_cli_word(tokens[i]):
        t = tokens[i]
        if re.match(r"^[A-Z_][A-Z0-9_]*=", t):
            name, _, value = t.partition("=")
            env[name] = value
        elif t in ("/usr/bin/time", "time"):
            pass
        elif t == "-f" and i > 0 and tokens[i - 1] in ("/usr/bin/time", "time", "-v"):
            i += 1
        elif t == "-v" and i > 0 and tokens[i - 1] in ("/usr/bin/time", "time"):
            pass
        else:
            return None
        i += 1
    if i == len(tokens):
        return None
    return env, tokens[i:]


def split_command(text: str) -> list[str]:
    """The words of a command line, without its comment and output redirections."""
    text = re.sub(r"(?<!\S)\d?>&\d\b|(?<!\S)\d?>>?\s*\S+", " ", text)
    lexer = shlex.shlex(text, posix=True, punctuation_chars="|<>&;")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def comment_of(text: str) -> str:
    # The comment: after a # that is not inside quotes.
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1].isspace()):
            return text[i + 1 :]
    return ""


def find_commands(root: Path) -> list[DocCommand]:
    found: list[DocCommand] = []
    for page in pages(root):
        doc = str(page.relative_to(root))
        pending: DocCommand | None = None  # a `$ ` command collecting its output
        last_block = None
        joined = ""
        joined_line = 0
        for number, line, block in code_lines(page):
            if block != last_block:
                pending = None
                joined = ""
                last_block = block
            if joined:
                joined += " " + line.strip()
            else:
                joined_line = number
                joined = line.strip()
            if joined.endswith("\\"):
                joined = joined[:-1].rstrip()
                continue
            text, joined = joined, ""
            transcript = text.startswith("$ ")
            body = text[2:] if transcript else text
            try:
                words = split_command(body)
            except ValueError:
                words = []
            is_cli = strip_prefix(words) is not None if words else False
            if transcript:
                pending = None
                if is_cli:
                    pending = DocCommand(doc, joined_line, body, transcript=True)
                    found.append(pending)
                continue
            if pending is not None:
                pending.output.append(line.rstrip())
                continue
            if is_cli:
                found.append(DocCommand(doc, joined_line, body))
    return found


def help_text(cli: str, command: str) -> tuple[int, str]:
    r = subprocess.run([cli, command, "--help"], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def command_help(full_help: str) -> str:
    """The part of a --help text about the command (before the shared Options: tail)."""
    return full_help.split("\nOptions:")[0]


def options_in(text: str) -> set[str]:
    opts = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", text))
    opts |= set(re.findall(r"(?<![\w-])(-[a-z])(?![\w-])", text))
    return opts


def check_against_help(cli: str, words: list[str], why: str) -> list[str]:
    """A synopsis, or a line checked with --help only: its command and options exist."""
    command = next((w for w in words[1:] if not w.startswith("-")), None)
    if command is None:  # dynascope-cli --help, --version
        r = subprocess.run([cli] + words[1:], capture_output=True, text=True)
        return [] if r.returncode == 0 else [f"exits {r.returncode} ({why})"]
    if command not in COMMANDS and command != "COMMAND":
        return [f"'{command}' is not a dynascope-cli command ({why})"]
    command = "summary" if command == "COMMAND" else command
    rc, text = help_text(cli, command)
    if rc != 0:
        return [f"'{command} --help' exits {rc}"]
    text = command_help(text)
    # Options before the program's own command line (after --).
    before = words[: words.index("--")] if "--" in words else words
    named = options_in(" ".join(before)) - {"--help", "-h", "--version", "--"}
    missing = sorted(o for o in named if o not in options_in(text) and o != "--output")
    return [f"'{command} --help' does not name {', '.join(missing)} ({why})"] if missing else []


def substitute(words: list[str], tmp: Path, root: Path) -> tuple[list[str], str | None, list[Path]]:
    """Placeholders replaced; returns the argv, the stdin file (or None) and the outputs."""
    argv: list[str] = []
    stdin: str | None = EXAMPLE
    outputs: list[Path] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w == "|":  # a pipe: only the command before it runs
            break
        if w == "<":
            stdin = INPUTS.get(words[i + 1], words[i + 1])
            i += 2
            continue
        previous = words[i - 1] if i > 0 else ""
        if previous in OUTPUT_OPTIONS and w != "-":
            out = tmp / Path(w).name
            if w in words[:i] and (root / w).is_file():
                # The output names an input: both point at a copy, never at the file itself.
                shutil.copyfile(root / w, out)
                argv = [str(out) if a == w else a for a in argv]
            else:
                outputs.append(out)
            argv.append(str(out))
        elif (previous, w) in OPTION_VALUES:
            argv.append(OPTION_VALUES[(previous, w)])
        elif w in INPUTS:
            argv.append(INPUTS[w])
        else:
            if PLACEHOLDER.match(w) and not (root / w).exists():
                raise KeyError(w)
            argv.append(w)
        i += 1
    return argv, stdin, outputs


def shown_lines_missing(shown: list[str], printed: str) -> list[str]:
    """The shown lines that are not, in order, among the printed ones."""
    actual = [line.rstrip() for line in printed.split("\n")]
    at = 0
    for want in shown:
        if want in ("", "..."):
            continue
        while at < len(actual) and actual[at] != want:
            at += 1
        if at == len(actual):
            return [want]
        at += 1
    return []


def run_commands(cli: str, root: Path) -> int:
    commands = find_commands(root)
    failures: list[str] = []
    ran = helped = synopses = compared = 0
    per_doc: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="dynascope-docs-") as tmpdir:
        for n, c in enumerate(commands):
            per_doc[c.doc] = per_doc.get(c.doc, 0) + 1
            words = split_command(c.text)
            prefix = strip_prefix(words)
            assert prefix is not None  # find_commands kept only lines it accepts
            env_extra, words = prefix
            command = next((w for w in words[1:] if not w.startswith("-")), None)
            if SYNOPSIS.search(c.text.split("#")[0]):
                synopses += 1
                failures += [f"{c.where()}\n    {p}" for p in check_against_help(cli, words, "synopsis")]
                continue
            if command in RUNS_A_PROGRAM and "--report" not in words:
                helped += 1
                print(f"{c.doc}:{c.line}: {command} runs a program: checked with --help only: {c.text}")
                failures += [f"{c.where()}\n    {p}" for p in check_against_help(cli, words, "--help only")]
                continue
            tmp = Path(tmpdir) / str(n)
            tmp.mkdir()
            try:
                argv, stdin, outputs = substitute(words[1:], tmp, root)
            except KeyError as e:
                failures.append(f"{c.where()}\n    no placeholder rule for {e.args[0]} (tests/docs/check_docs.py)")
                continue
            m = EXIT_COMMENT.search(comment_of(c.text))
            expected = int(m.group(1)) if m else 0
            env = dict(os.environ, **env_extra)
            with open(root / stdin if stdin else os.devnull, "rb") as inp:
                r = subprocess.run([cli] + argv, cwd=root, stdin=inp, capture_output=True, env=env, timeout=300)
            ran += 1
            printed = r.stdout.decode("utf-8", "replace") + r.stderr.decode("utf-8", "replace")
            if r.returncode != expected:
                failures.append(
                    f"{c.where()}\n    exits {r.returncode}, the doc says {expected}\n"
                    f"    ran: {shlex.join([cli] + argv)}\n    " + printed[-2000:].replace("\n", "\n    "))
                continue
            if expected == 0:
                for out in outputs:
                    if not out.exists() or out.stat().st_size == 0:
                        failures.append(f"{c.where()}\n    wrote no {out.name}")
            if c.transcript:
                compared += 1
                missing = shown_lines_missing(c.output, printed)
                if missing:
                    failures.append(
                        f"{c.where()}\n    the doc shows this line, the command did not print it (in that order):\n"
                        f"    {missing[0]}\n    printed:\n    " + printed[:3000].replace("\n", "\n    "))
    summary = ", ".join(f"{d} {k}" for d, k in per_doc.items())
    print(f"{len(commands)} dynascope-cli lines ({summary}): {ran} run ({compared} with their output "
          f"compared), {synopses} synopses and {helped} record/probe lines checked against --help")
    for f in failures:
        print(f"FAIL {f}")
    if not commands:
        print("FAIL no dynascope-cli line found: is the parser broken?")
        return 1
    return 1 if failures else 0


def sections(markdown: str) -> dict[str, str]:
    """`## title` -> its text (up to the next ## heading)."""
    out: dict[str, str] = {}
    title = ""
    for line in markdown.split("\n"):
        m = re.match(r"^## (.*)$", line)
        if m:
            title = m.group(1).strip()
            out[title] = ""
        elif title:
            out[title] += line + "\n"
    return out


def check_cli_options(cli: str, root: Path) -> int:
    doc = root / "docs" / "cli.md"
    text = doc.read_text(encoding="utf-8")
    secs = sections(text)
    failures: list[str] = []
    r = subprocess.run([cli, "--help"], capture_output=True, text=True)
    listed = re.findall(r"^  ([a-z][a-z-]*) ", r.stdout.split("\nOptions:")[0], re.M)
    for command in sorted(set(listed) | set(COMMANDS)):
        if command not in listed:
            failures.append(f"dynascope-cli --help does not list {command}")
            continue
        if command not in secs:
            failures.append(f"docs/cli.md has no '## {command}' section for a command --help lists")
            continue
        rc, full = help_text(cli, command)
        for opt in sorted(options_in(command_help(full)) - {"--"}):
            if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", secs[command]):
                failures.append(f"'dynascope-cli {command} --help' lists {opt}, the '## {command}' section of docs/cli.md does not")
    for opt in sorted(options_in(r.stdout.split("\nOptions:", 1)[1])):
        if opt not in text:
            failures.append(f"dynascope-cli --help lists {opt}, docs/cli.md does not")
    man = root / "packaging" / "man" / "dynascope-cli.1.in"
    if man.exists():
        # Its own options: not in comments (.\"), not a program's arguments after " -- ".
        man_lines = man.read_text(encoding="utf-8").replace("\\-", "-").split("\n")
        man_opts = options_in("\n".join(
            line.split(" -- ")[0] for line in man_lines if not line.startswith('.\\"')))
        for opt in sorted(man_opts):
            if not re.search(r"(?<![\w-])" + re.escape(opt) + r"(?![\w-])", text):
                failures.append(f"{man.relative_to(root)} describes {opt}, docs/cli.md does not")
    print(f"{len(set(listed))} commands of dynascope-cli --help, each with a section in docs/cli.md naming every option of its --help; the man page's options too")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


# ![alt](target): the alt text may hold balanced brackets ([3/1]), one level deep.
IMAGE = re.compile(r"!\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*([^)\s]+)(?:\s+\"[^\"]*\")?\s*\)|<img\s[^>]*src=\"([^\"]+)\"", re.S)
SCREENSHOTS = "scripts/screenshots.sh"
# A picture's line in scripts/screenshots.sh: `shot NAME.png WxH ...` (or shot_live, shot_notebook).
SHOT = re.compile(r"^\s*shot\w*\s+([\w.-]+\.png)\s+(\d+)x(\d+)(?=\s|$)", re.M)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def declared_images(root: Path) -> dict[str, tuple[int, int]]:
    """NAME.png -> (width, height), as scripts/screenshots.sh makes them (into docs/)."""
    text = (root / SCREENSHOTS).read_text(encoding="utf-8")
    return {m.group(1): (int(m.group(2)), int(m.group(3))) for m in SHOT.finditer(text)}


def png_size(path: Path) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk (the first, right after the signature)."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def size_problem(path: Path, want: tuple[int, int]) -> str | None:
    got = png_size(path)
    if got is None:
        return "is not a PNG"
    if got != want:
        return f"is {got[0]}x{got[1]}, {SCREENSHOTS} makes it {want[0]}x{want[1]}"
    return None


def check_images(root: Path) -> int:
    failures: list[str] = []
    declared = declared_images(root)
    named: set[str] = set()
    count = 0
    for page in pages(root):
        text = page.read_text(encoding="utf-8")
        for m in IMAGE.finditer(text):
            target = m.group(1) or m.group(2)
            where = f"{page.relative_to(root)}:{text.count(chr(10), 0, m.start()) + 1}"
            if re.match(r"^[a-z]+:", target):
                failures.append(f"{where}: image {target} is not a file in the repository")
                continue
            count += 1
            path = (page.parent / target).resolve()
            if not path.is_file():
                failures.append(f"{where}: image {target} does not exist")
                continue
            if path.parent != root / "docs" or path.name not in declared:
                failures.append(f"{where}: image {target} is not made by {SCREENSHOTS} (add a shot line there)")
                continue
            named.add(path.name)
            problem = size_problem(path, declared[path.name])
            if problem:
                failures.append(f"{where}: image {target} {problem}: run bash {SCREENSHOTS} {path.name}")
    for name in sorted(set(declared) - named):
        failures.append(f"{SCREENSHOTS} makes {name}, which no page of README.md and docs/*.md shows")
    print(f"{count} images named in README.md and docs/*.md; {len(declared)} made by {SCREENSHOTS}, "
          "each at the size it declares")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


def check_screenshots(bin_dir: str, root: Path) -> int:
    """Run scripts/screenshots.sh into a scratch folder: each picture made at its declared size,
    or skipped with the reason the script gives (an input or tool this machine lacks)."""
    declared = declared_images(root)
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="dynascope-screenshots-") as out:
        r = subprocess.run(["bash", str(root / SCREENSHOTS), "--bin", bin_dir, "--out", out],
                           capture_output=True, text=True, timeout=300)
        print(r.stdout + r.stderr, end="")
        if r.returncode != 0:
            failures.append(f"{SCREENSHOTS} exits {r.returncode}")
        skipped = set(re.findall(r"^skipped ([\w.-]+\.png):", r.stdout, re.M))
        for name, size in sorted(declared.items()):
            made = Path(out) / name
            if not made.is_file():
                if name not in skipped:
                    failures.append(f"{SCREENSHOTS} neither made nor skipped {name}")
                continue
            problem = size_problem(made, size)
            if problem:
                failures.append(f"{name} as made {problem}")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=["commands", "cli-options", "images", "screenshots"])
    ap.add_argument("--cli", help="dynascope-cli to run")
    ap.add_argument("--bin", help="the folder of dynascope, dynascope-fixtures and dynascope-standin")
    ap.add_argument("--root", required=True, help="the repository root")
    a = ap.parse_args()
    root = Path(a.root).resolve()
    if a.check == "images":
        return check_images(root)
    if a.check == "screenshots":
        if not a.bin:
            ap.error("--bin is needed")
        return check_screenshots(a.bin, root)
    if not a.cli:
        ap.error("--cli is needed")
    if a.check == "commands":
        return run_commands(a.cli, root)
    return check_cli_options(a.cli, root)


if __name__ == "__main__":
    sys.exit(main())
