#!/usr/bin/env python3
"""ARCHITECTURE.md stays a map: every `name` it uses exists in the repository, and it carries no
figures (they live in BENCHMARKS.md). The app's pure core holds to its invariant: no clock, task,
queue or sleep in its files. Run by `make test`; exit 1 names what is wrong."""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SEARCHED = ["Sources", "Tests", "Fuzz", "scripts", "docs", "Benchmarks", "Examples", "Resources", "Package.swift", "Makefile"]


def found(text, whole_word):
    """The text somewhere in the searched files (as a whole word for a plain identifier)."""
    args = ["grep", "-rqIF", "--exclude=ARCHITECTURE.md"] + (["-w"] if whole_word else []) + ["--", text] + SEARCHED
    return subprocess.run(args, cwd=ROOT).returncode == 0


def path_exists(path):
    """A path from the root, or a folder or file of that name inside a source tree."""
    path = path.rstrip("/")
    if os.path.exists(os.path.join(ROOT, path)):
        return True
    trees = [tree for tree in ["Sources", "Tests", "Fuzz", "Benchmarks", "Examples"] if os.path.isdir(os.path.join(ROOT, tree))]
    found_paths = subprocess.run(["find", *trees, "-path", "*/" + path], cwd=ROOT, capture_output=True, text=True).stdout
    return bool(found_paths.strip())


def exists(token):
    makefile = open(os.path.join(ROOT, "Makefile")).read()
    if token.startswith("make "):
        return re.search(r"^" + re.escape(token.split()[1]) + r":", makefile, re.M) is not None
    if token.startswith("todo "):
        return found('commandName: "%s"' % token.split()[1], False)
    if re.match(r"^(GET|POST|PUT|PATCH|DELETE) ", token):
        return found(token.split()[1], False)
    if "/" in token and not token.startswith(("/", "?")):
        return path_exists(token)
    if re.match(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$", token):
        return all(found(part, True) for part in token.split("."))
    if token.startswith("."):
        return found("case " + token[1:], False) or found(token, False)
    if re.match(r"^[\w+]+$", token):  # an identifier, or a file's name (`TodoService+Sharing`)
        return found(token, "+" not in token) or path_exists(token + ".swift")
    return found(token, False)


# TodoKit's pure files (ARCHITECTURE.md, "TodoKit"): the core's folders and every view model.
PURE_FOLDERS = ["App", "Layers", "Keys", "Widgets"]
IMPURE = re.compile(r"\bTask\s*\{|Task\.detached|DispatchQueue|\bDate\(\)|ContinuousClock|\bThread\.|\busleep\(|\bsleep\(|import Dispatch")


def impure_lines():
    """Lines of TodoKit's pure files that reach for a clock, a task, a queue or a sleep."""
    base = os.path.join(ROOT, "Sources", "TodoKit")
    problems = []
    for folder, _, files in os.walk(base):
        relative = os.path.relpath(folder, base)
        for name in files:
            if not name.endswith(".swift") or not (relative.split(os.sep)[0] in PURE_FOLDERS or name.endswith("ViewModel.swift")):
                continue
            for number, line in enumerate(open(os.path.join(folder, name)), 1):
                code = line.split("//")[0]
                if IMPURE.search(code):
                    problems.append(f"Sources/TodoKit/{os.path.join(relative, name)}:{number}: a pure file reaches outside: {line.strip()}")
    return problems


# The composition (ARCHITECTURE.md, "How to add a capability"): the root's enums hold one case per
# capability and route by exhaustive switches, so no cast routes a message, an effect or a client.
ROUTING = ["App", "Layers", "Runtime", "Service"]
CAST = re.compile(r"\bas[?!]\s|\bis\s+[A-Z(]|\bis\s+any\b")
# The one cast left: a held reply is given back as the type its holder asked for (`AppRuntime.hold`).
ALLOWED_CASTS = {("Runtime/AppRuntime.swift", "guard let answer = answer as? Answer else {")}


def routing_casts():
    """Lines of the composition's files that route by a cast."""
    base = os.path.join(ROOT, "Sources", "TodoKit")
    problems = []
    for folder in ROUTING:
        for name in sorted(os.listdir(os.path.join(base, folder))):
            relative = os.path.join(folder, name)
            for number, line in enumerate(open(os.path.join(base, relative)), 1):
                code = line.split("//")[0]
                if CAST.search(code) and (relative, line.strip()) not in ALLOWED_CASTS:
                    problems.append(f"Sources/TodoKit/{relative}:{number}: routes by a cast: {line.strip()}")
    return problems


# The capabilities' rooms: TodoKit's folders beside the core, each a capability. A capability may
# use another's types, but never back: the scan of type names finds no cycle among them.
CORE = ["App", "Runtime", "Layers", "Keys", "Widgets", "Service"]


def capability_cycles():
    """Cycles among the capability folders, by the types each names of another's."""
    base = os.path.join(ROOT, "Sources", "TodoKit")
    folders = [f for f in sorted(os.listdir(base)) if os.path.isdir(os.path.join(base, f)) and f not in CORE]
    declared, code = {}, {}
    for folder in folders:
        for name in sorted(os.listdir(os.path.join(base, folder))):
            text = open(os.path.join(base, folder, name)).read()
            code[(folder, name)] = "\n".join(line.split("//")[0] for line in text.splitlines())
            for match in re.finditer(r"^(?:@\w+\s+)*(?:(?:public|internal|private|fileprivate|final)\s+)*(?:struct|enum|class|protocol|actor)\s+(\w+)",
                                     text, re.M):
                declared[match.group(1)] = folder
    # A capability's store is reached through the session too (`store.sharing`): that names it.
    reached = {}
    for (folder, name), text in code.items():
        for match in re.finditer(r"public var (\w+): \w+ \{ \w+\(store: self\) \}", text):
            reached[match.group(1)] = folder
    uses = {folder: {} for folder in folders}
    for (folder, name), text in code.items():
        named = [(word, declared.get(word)) for word in set(re.findall(r"\b[A-Z]\w*", text))]
        named += [("store." + word, reached.get(word)) for word in set(re.findall(r"\bstore\.(\w+)\.", text))]
        for word, other in named:
            if other and other != folder:
                uses[folder].setdefault(other, f"{folder}/{name} names {word}")
    problems, done, path = [], set(), []

    def walk(folder):
        if folder in path:
            cycle = path[path.index(folder):] + [folder]
            reasons = "; ".join(uses[a][b] for a, b in zip(cycle, cycle[1:]))
            problems.append(f"Sources/TodoKit: the capabilities {' → '.join(cycle)} form a cycle ({reasons})")
            return
        if folder in done:
            return
        path.append(folder)
        for other in sorted(uses[folder]):
            walk(other)
        path.pop()
        done.add(folder)

    for folder in folders:
        walk(folder)
    return problems


def main():
    text = open(os.path.join(ROOT, "ARCHITECTURE.md")).read()
    prose = re.sub(r"```.*?```", "", text, flags=re.S)
    problems = []
    for token in sorted(set(re.findall(r"`([^`]+)`", prose))):
        if "(" in token or " " in token and not re.match(r"^(make|todo|GET|POST|PUT|PATCH|DELETE) ", token):
            continue  # a signature or a phrase, not a name
        if not exists(token):
            problems.append(f"ARCHITECTURE.md names `{token}`, which is nowhere in the code")
    # Figures: a number with a unit or a multiplier (HTTP statuses and names with digits pass).
    for number, line in enumerate(prose.splitlines(), 1):
        for figure in re.findall(r"\b\d[\d,.]*\s?(?:ms|µs|s\b|%|×|MB|KB|GB|MiB|KiB|rows|requests|items)", line):
            problems.append(f"ARCHITECTURE.md:{number}: '{figure}' is a figure; figures live in BENCHMARKS.md")
    problems += impure_lines()
    problems += routing_casts()
    problems += capability_cycles()
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
