#!/usr/bin/env python3
"""Checks that every public declaration of the Hearth module has a doc comment.

Lists each public declaration of Sources/Hearth (and each case of a public enum, each
requirement of a public protocol) without a `///` comment, and each throwing public
function whose comment has no `- Throws:` line naming the errors it can throw; exits 1
when any is left. The API is what users read first, so it says what each call does and
how it fails.

    Tools/check-doc-comments.py [--skip FILE]... [DIRECTORY]

`--skip FILE` (a path under the directory, or a file name) still counts the file's
declarations but does not fail for them: for work in progress. Tools/test.sh runs it
without skips.
"""

import argparse
import os
import re
import sys

DECLARATION = re.compile(
    r"^(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?P<modifiers>(?:(?:public|open|private\(set\)|fileprivate\(set\)|internal\(set\)|static|class|final|"
    r"override|convenience|required|mutating|nonmutating|nonisolated|indirect|lazy|dynamic|"
    r"@[\w.]+(?:\([^)]*\))?)\s+)*)"
    r"(?P<keyword>func|init\??!?|var|let|subscript|struct|class|enum|protocol|typealias|actor|case|"
    r"associatedtype|extension|deinit)\b(?P<rest>.*)$")
TYPE_KEYWORDS = {"struct", "class", "enum", "protocol", "actor", "extension"}
# Lines between a doc comment and its declaration that do not separate them.
ATTRIBUTE = re.compile(r"^@[\w.]+(?:\(.*\))?$")


def strip_code(lines):
    """The lines with string literals and comments blanked (same length and line count),
    so that braces and keywords are found only in code. Also returns, per line, whether
    it holds a doc comment (`///` or part of `/** */`)."""
    code, docs = [], []
    in_block = 0  # nesting of /* */
    block_is_doc = False
    in_multiline = None  # the closing delimiter of a multi-line string
    for line in lines:
        out, i, doc = [], 0, False
        n = len(line)
        while i < n:
            if in_block:
                if line.startswith("*/", i):
                    in_block -= 1
                    i += 2
                elif line.startswith("/*", i):
                    in_block += 1
                    i += 2
                else:
                    i += 1
                doc = doc or block_is_doc
                continue
            if in_multiline:
                end = line.find(in_multiline, i)
                if end < 0:
                    i = n
                else:
                    i = end + len(in_multiline)
                    in_multiline = None
                continue
            c = line[i]
            if line.startswith("///", i):
                doc = True
                break
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = 1
                block_is_doc = line.startswith("/**", i) and not line.startswith("/**/", i)
                doc = doc or block_is_doc
                i += 2
                continue
            m = re.match(r'(#*)"""', line[i:])
            if m:
                in_multiline = '"""' + m.group(1)
                out.append('""')
                i += len(m.group(0))
                continue
            m = re.match(r'(#*)"', line[i:])
            if m:
                closing = '"' + m.group(1)
                raw = bool(m.group(1))
                j = i + len(m.group(0))
                depth = 0  # interpolations \( … ) may hold strings and parentheses
                while j < n:
                    if not raw and line[j] == "\\" and j + 1 < n:
                        if line[j + 1] == "(":
                            depth += 1
                            j += 2
                            continue
                        j += 2
                        continue
                    if depth and line[j] == ")":
                        depth -= 1
                    elif depth and line[j] == "(":
                        depth += 1
                    elif not depth and line.startswith(closing, j):
                        j += len(closing)
                        break
                    j += 1
                out.append('""')
                i = j
                continue
            out.append(c)
            i += 1
        code.append("".join(out))
        docs.append(doc)
    return code, docs


class Declaration:
    def __init__(self, path, line, keyword, name, signature, has_doc, has_throws_doc):
        self.path, self.line, self.keyword, self.name = path, line, keyword, name
        self.signature, self.has_doc, self.has_throws_doc = signature, has_doc, has_throws_doc

    @property
    def throws(self):
        """Whether the function (or initializer, or accessor) throws: `throws` after its
        parameter list, not inside a closure parameter's type."""
        if self.keyword not in {"func", "init", "init?", "init!", "subscript", "var"}:
            return False
        text = self.signature
        if self.keyword == "var":
            return bool(re.search(r"\bget\s+throws\b", text))
        start = text.find("(")
        if start < 0:
            return False
        depth = 0
        for index in range(start, len(text)):
            if text[index] == "(":
                depth += 1
            elif text[index] == ")":
                depth -= 1
                if depth == 0:
                    tail = re.split(r"\{|\bwhere\b", text[index + 1:], maxsplit=1)[0]
                    return bool(re.search(r"\bthrows\b", tail))
        return False

    def describe(self):
        return f"{self.keyword} {self.name}".strip()


def declarations(path, display):
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    code, docs = strip_code(lines)
    found = []
    # The open braces: for each, whether it is the body of a public enum or protocol.
    stack = []
    pending_type = None  # (keyword, is_public) of a type whose `{` has not come yet
    index = 0
    while index < len(code):
        text = code[index].strip()
        match = DECLARATION.match(text)
        if match:
            modifiers = match.group("modifiers")
            keyword = match.group("keyword")
            is_public = bool(re.search(r"\b(public|open)\b", modifiers))
            container = stack[-1] if stack else None
            implicit = container is not None and (
                (container == ("enum", True) and keyword == "case")
                or (container == ("protocol", True) and keyword != "case"))
            if keyword in TYPE_KEYWORDS:
                pending_type = (keyword, is_public or (keyword == "extension"))
            if (is_public or implicit) and keyword != "extension":
                signature, end = signature_from(code, index)
                name_match = re.match(r"\s*([^\s(<:={]+|[=<>!+*/%&|^~-]+)", match.group("rest"))
                name = name_match.group(1) if name_match else ""
                if keyword == "case":
                    name = match.group("rest").split("(")[0].strip()
                has_doc, has_throws_doc = doc_comment(lines, code, docs, index)
                found.append(Declaration(display, index + 1, keyword, name, signature, has_doc, has_throws_doc))
        for character in code[index]:
            if character == "{":
                if pending_type:
                    stack.append(pending_type if pending_type[0] in {"enum", "protocol"} else ("type", False))
                    pending_type = None
                else:
                    stack.append(("block", False))
            elif character == "}":
                if stack:
                    stack.pop()
        index += 1
    return found


def signature_from(code, index):
    """The declaration's text from its first line up to its body's `{` (or its end)."""
    parts, depth = [], 0
    for offset in range(index, min(index + 40, len(code))):
        text = code[offset]
        for position, character in enumerate(text):
            if character in "([<":
                depth += 1
            elif character in ")]" or (character == ">" and text[position - 1:position] != "-"):
                depth = max(depth - 1, 0)
            elif character == "{" and depth == 0:
                parts.append(text[:position + 1])
                return " ".join(parts), offset
        parts.append(text)
        if depth == 0 and not text.rstrip().endswith((",", "->", "throws", ":")):
            following = code[offset + 1].strip() if offset + 1 < len(code) else ""
            if not following.startswith(("throws", "->", "where", "{", "async", "rethrows")):
                return " ".join(parts), offset
    return " ".join(parts), index


def doc_comment(lines, code, docs, index):
    """Whether the declaration at `index` has a doc comment, and whether it has a
    `- Throws:` line. Attributes and plain `//` comments may stand in between."""
    comment = []
    cursor = index - 1
    while cursor >= 0:
        raw = lines[cursor].strip()
        if docs[cursor]:
            comment.append(raw)
        elif raw.startswith("//") or ATTRIBUTE.match(code[cursor].strip()) or raw.startswith("#if"):
            if comment and not raw.startswith("//"):
                break
        else:
            break
        cursor -= 1
    text = "\n".join(reversed(comment))
    return bool(comment), bool(re.search(r"^\s*(///|\*)?\s*-\s*Throws:", text, re.MULTILINE))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("directory", nargs="?", default="Sources/Hearth")
    parser.add_argument("--skip", action="append", default=[], metavar="FILE",
                        help="count FILE's declarations but do not fail for them")
    arguments = parser.parse_args()

    root = arguments.directory.rstrip("/")
    skips = {os.path.normpath(skip) for skip in arguments.skip}

    def skipped(display):
        relative = os.path.relpath(display, root)
        return any(skip in {display, relative, os.path.basename(display)} or display.endswith("/" + skip)
                   for skip in skips)

    everything = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for name in sorted(files):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                everything.extend(declarations(path, os.path.normpath(path)))

    undocumented = [d for d in everything if not d.has_doc]
    throwing = [d for d in everything if d.throws]
    without_throws = [d for d in throwing if d.has_doc and not d.has_throws_doc]
    failing = [d for d in undocumented + without_throws if not skipped(d.path)]

    for declaration in sorted(undocumented + without_throws, key=lambda d: (d.path, d.line)):
        reason = "no doc comment" if not declaration.has_doc else "throws, but its comment has no '- Throws:'"
        if not declaration.has_doc and declaration.throws:
            reason += " (and it throws: add '- Throws:')"
        mark = " [skipped]" if skipped(declaration.path) else ""
        print(f"{declaration.path}:{declaration.line}: {declaration.describe()}: {reason}{mark}")

    documented = len(everything) - len(undocumented)
    listed = sum(1 for d in throwing if d.has_throws_doc)
    print(f"{documented} of {len(everything)} public declarations have a doc comment; "
          f"{listed} of {len(throwing)} throwing ones list their errors under '- Throws:'.")
    if skips:
        left = len(undocumented + without_throws) - len(failing)
        print(f"{left} of these in skipped files ({', '.join(sorted(skips))}).")
    if failing:
        print(f"{len(failing)} to document.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
