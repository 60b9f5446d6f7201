#!/usr/bin/env bash
# Checks the layering written in docs/architecture.md ("HearthCore's folders"):
#
# - the module order (`CLMDB → HearthStorage → … → hearth`, bottom to top): a file in
#   Sources/M may import only modules before M (modules not in the order, such as
#   Foundation, are not checked);
# - the folder order of Sources/HearthCore (`Model → JSON → … → Snapshot`, bottom to top):
#   a file in one folder may not name, in code, a type declared in a later folder, nor
#   extend one, nor use a member that a later folder's extension adds to a type of its
#   own (through `self`, or as `Type.member`). Comments and string literals do not count
#   (interpolations do).
#
# Each violation is printed as `file:line: … uses TYPE …`; the exit status is 1 when there
# is one (2 when the orders cannot be read). The check reads the source text, without the
# compiler: it knows the top-level types, protocols and type aliases each file declares
# and the members each extension adds, and where each is named. A member reached through
# a value (`store.member`) is not seen, since that needs the value's type.
#
#   Tools/check-layers.sh [ROOT]       # ROOT: the package (default: this script's)
#   Tools/check-layers.sh --self-test  # plants violations in a copy and expects them found
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."

check() {
  python3 - "$1" <<'PYTHON'
import os
import re
import sys

root = sys.argv[1]
ARROW = "→"


def fail(message):
    print(f"check-layers: {message}", file=sys.stderr)
    sys.exit(2)


def orders(document):
    """The arrow lines of the "HearthCore's folders" section, each as a list of names."""
    try:
        lines = open(document, encoding="utf-8").read().splitlines()
    except OSError as error:
        fail(f"cannot read {document}: {error}")
    found, inside = [], False
    for line in lines:
        if line.startswith("#"):
            inside = line.lstrip("#").strip() == "HearthCore's folders"
            continue
        text = line.strip().strip("`").strip()
        if inside and ARROW in text:
            names = [name.strip() for name in text.split(ARROW)]
            if all(re.fullmatch(r"[A-Za-z_]\w*", name) for name in names):
                found.append(names)
    return found


def blank(text, start, end):
    return "".join(c if c == "\n" else " " for c in text[start:end])


def strip_swift(text):
    """The source with comments and string-literal text turned to spaces (lines and
    columns kept); string interpolations stay code."""
    out, i, n = [], 0, len(text)

    def code(i, in_interpolation):
        depth = 0
        while i < n:
            c = text[i]
            if text.startswith("//", i):
                end = text.find("\n", i)
                end = n if end < 0 else end
                out.append(blank(text, i, end))
                i = end
            elif text.startswith("/*", i):
                j, level = i + 2, 1
                while j < n and level:
                    if text.startswith("/*", j):
                        level, j = level + 1, j + 2
                    elif text.startswith("*/", j):
                        level, j = level - 1, j + 2
                    else:
                        j += 1
                out.append(blank(text, i, j))
                i = j
            elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
                i = string(i)
            elif c == "(":
                depth += 1
                out.append(c)
                i += 1
            elif c == ")":
                if in_interpolation and depth == 0:
                    return i
                depth -= 1
                out.append(c)
                i += 1
            else:
                out.append(c)
                i += 1
        return i

    def string(i):
        hashes = len(re.match(r"#*", text[i:]).group(0))
        i += hashes
        multi = text.startswith('"""', i)
        quote = '"""' if multi else '"'
        close = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        out.append(" " * (hashes + len(quote)))
        i += len(quote)
        while i < n:
            if text.startswith(close, i):
                out.append(" " * len(close))
                return i + len(close)
            if text.startswith(escape + "(", i):
                out.append(" " * (len(escape) + 1))
                i = code(i + len(escape) + 1, True)
                if i < n:
                    out.append(" ")
                    i += 1
            elif text.startswith(escape, i):
                out.append(blank(text, i, i + len(escape) + 1))
                i += len(escape) + 1
            elif text[i] == "\n" and not multi:
                return i  # an unterminated literal: leave the rest as code
            else:
                out.append(blank(text, i, i + 1))
                i += 1
        return i

    code(0, False)
    return "".join(out)


def swift_files(directory):
    for folder, _, names in sorted(os.walk(directory)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def line_of(text, position):
    return text.count("\n", 0, position) + 1


DECLARATION = re.compile(
    r"\{|\}|\b(class|struct|enum|protocol|actor|typealias|extension)\s+([A-Za-z_][\w.]*)"
    r"|\b(func|var|let|case|subscript)\s+`?([A-Za-z_]\w*)")
PRIVATE = re.compile(r"\b(private|fileprivate)\b")
IDENTIFIER = re.compile(r"(?<![\w.$])([A-Z]\w*)")
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:class|struct|enum|protocol|typealias|func|var|let)\s+)?(\w+)",
                    re.M)

document = os.path.join(root, "docs", "architecture.md")
sources = os.path.join(root, "Sources")
core = os.path.join(sources, "HearthCore")
module_order = folder_order = None
for names in orders(document):
    if all(os.path.isdir(os.path.join(core, name)) for name in names):
        folder_order = names
    elif all(os.path.isdir(os.path.join(sources, name)) for name in names):
        module_order = names
if folder_order is None:
    fail(f"{document} has no line of HearthCore's folders (A {ARROW} B {ARROW} …) in its \"HearthCore's folders\" section")
if module_order is None:
    fail(f"{document} has no line of the modules in Sources/ (A {ARROW} B {ARROW} …) in its \"HearthCore's folders\" section")
unlisted = sorted(set(os.listdir(core)) - set(folder_order))
if unlisted:
    fail(f"Sources/HearthCore has files or folders outside the folders {document} orders: {', '.join(unlisted)}")

violations = []


def report(path, line, message):
    violations.append((os.path.relpath(path, root), line, message))


# Modules: a file's imports of ordered modules must come before its own module.
for module in sorted(os.listdir(sources)):
    if module not in module_order:
        continue
    rank = module_order.index(module)
    for path in swift_files(os.path.join(sources, module)):
        code = strip_swift(open(path, encoding="utf-8").read())
        for match in IMPORT.finditer(code):
            imported = match.group(1)
            if imported in module_order and module_order.index(imported) >= rank:
                report(path, line_of(code, match.start(1)),
                       f"{module} imports {imported}, which is not before it in the module order")

# HearthCore's folders: where each type is declared, then who names it.
files = {}  # path → (folder, stripped code)
declared = {}  # type name → (folder, path)
local = {}  # path → names declared in the file at any depth
extended = {}  # (type, member) → (folder, path) of an extension that declares it
contexts = {}  # path → [(position, name of the top-level type or extension there)]
for folder in folder_order:
    for path in swift_files(os.path.join(core, folder)):
        code = strip_swift(open(path, encoding="utf-8").read())
        files[path] = (folder, code)
        contexts[path] = []
        local[path] = set()
        depth, context, extending = 0, None, False
        for match in DECLARATION.finditer(code):
            token = match.group(0)
            line_start = code.rfind("\n", 0, match.start()) + 1
            private = PRIVATE.search(code[line_start:match.start()])
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    context, extending = None, False
            elif match.group(3):
                local[path].add(match.group(4))
                if extending and depth == 1 and not private:
                    extended.setdefault((context, match.group(4)), (folder, path))
            elif depth == 0:
                context, extending = match.group(2), match.group(1) == "extension"
                contexts[path].append((match.start(), context))
                if not extending:
                    local[path].add(context)
                    if not private:
                        declared.setdefault(context, (folder, path))
            else:
                local[path].add(match.group(2))

MEMBER = re.compile(r"(?<![\w$.])(?:self\.)?([a-z_]\w*)")
QUALIFIED = re.compile(r"(?<![\w$.])([A-Z]\w*)\.([a-z_]\w*)")
for path, (folder, code) in files.items():
    rank = folder_order.index(folder)

    def member(type_name, name, position):
        owner = extended.get((type_name, name))
        if owner and folder_order.index(owner[0]) > rank:
            report(path, line_of(code, position),
                   f"{folder} uses {type_name}.{name} ({os.path.relpath(owner[1], core)}), which is in a later folder")

    # A member that a later folder's extension adds to a type: used through `self` inside
    # that type's own declaration or extensions here, or named with the type's name.
    # (Through a value of the type, `value.member`, it is not seen: that needs the types.)
    for position, (start, context) in enumerate(contexts[path]):
        end = contexts[path][position + 1][0] if position + 1 < len(contexts[path]) else len(code)
        for match in MEMBER.finditer(code, start, end):
            if match.group(1) not in local[path]:
                member(context, match.group(1), match.start(1))
    for match in QUALIFIED.finditer(code):
        member(match.group(1), match.group(2), match.start(1))
    seen = set()
    for match in IDENTIFIER.finditer(code):
        name = match.group(1)
        if name not in declared or name in local[path]:
            continue
        owner, owner_path = declared[name]
        line = line_of(code, match.start())
        if folder_order.index(owner) > rank and (line, name) not in seen:
            seen.add((line, name))
            report(path, line,
                   f"{folder} uses {name} ({os.path.relpath(owner_path, core)}), which is in a later folder")

violations = sorted(set(violations))
for path, line, message in violations:
    print(f"{path}:{line}: {message}")
if violations:
    print(f"check-layers: {len(violations)} uses against the order in docs/architecture.md", file=sys.stderr)
    sys.exit(1)
print(f"check-layers: the modules and HearthCore's {len(folder_order)} folders follow docs/architecture.md")
PYTHON
}

# Plants one violation of each kind (and look-alikes in comments and strings, which must
# not count) in a copy of the docs and sources, and expects exactly those reported.
self_test() {
  local copy
  copy="$(mktemp -d)"
  trap 'rm -rf "$copy"' RETURN
  mkdir -p "$copy/docs"
  cp docs/architecture.md "$copy/docs/"
  cp -R Sources "$copy/Sources"
  local model="$copy/Sources/HearthCore/Model"
  cat >"$model/PlantedViolation.swift" <<'SWIFT'
// A comment naming DocumentStore does not count, /* nor does QueryModel here */
let planted = "Tables in a string does not count"
func plantedUse(_ store: DocumentStore) -> String { "\(QueryModel.self)" }
extension FieldPath {
  func plantedCaller() { plantedHelper() }
}
extension IndexCatalog {}
let plantedStatic = FieldPath.plantedConstant
SWIFT
  cat >"$copy/Sources/HearthCore/Snapshot/PlantedHelper.swift" <<'SWIFT'
extension FieldPath {
  func plantedHelper() {}
  static let plantedConstant = 1
}
SWIFT
  echo 'import Hearth' >"$copy/Sources/HearthStorage/PlantedImport.swift"
  local output status=0
  output="$(check "$copy" 2>&1)" || status=$?
  local expected=(
    "Sources/HearthCore/Model/PlantedViolation.swift:3: Model uses DocumentStore"
    "Sources/HearthCore/Model/PlantedViolation.swift:3: Model uses QueryModel"
    "Sources/HearthCore/Model/PlantedViolation.swift:5: Model uses FieldPath.plantedHelper"
    "Sources/HearthCore/Model/PlantedViolation.swift:7: Model uses IndexCatalog"
    "Sources/HearthCore/Model/PlantedViolation.swift:8: Model uses FieldPath.plantedConstant"
    "Sources/HearthStorage/PlantedImport.swift:1: HearthStorage imports Hearth"
  )
  local failed=0
  [ "$status" -eq 1 ] || { echo "self-test: expected exit status 1, got $status" >&2; failed=1; }
  for line in "${expected[@]}"; do
    grep -qF "$line" <<<"$output" || { echo "self-test: not reported: $line" >&2; failed=1; }
  done
  if grep -E "PlantedViolation.swift:[12]:" <<<"$output" >&2; then
    echo "self-test: a comment or a string literal was taken for code" >&2
    failed=1
  fi
  if [ "$failed" -ne 0 ]; then
    echo "self-test: the check said:" >&2
    echo "$output" >&2
    return 1
  fi
  echo "check-layers self-test: planted violations found, comments and strings ignored"
}

case "${1:-}" in
  --self-test) self_test ;;
  "") check "$PWD" ;;
  *) check "$(cd "$caller" && cd "$1" && pwd)" ;;
esac
