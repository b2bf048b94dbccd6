"""Rewrite the golden transcripts after an intended change of play or of the transcript text:
``python -m tests.golden.regen`` (``make golden``), then review ``git diff tests/golden``.

Writes every case's transcript (tests/golden/cases.py), deletes files of ``transcripts/`` that
no case produces, and prints how many files changed."""

from __future__ import annotations

from tests.golden.cases import TRANSCRIPTS, cases, text


def regen() -> tuple[int, int, int]:
    """(written, changed or new, deleted stale) transcript files."""
    TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
    all_cases = cases()
    changed = 0
    for case in all_cases:
        new = text(case)
        old = case.path.read_text(encoding="utf-8") if case.path.is_file() else None
        if new != old:
            case.path.write_text(new, encoding="utf-8")
            changed += 1
            print(f"{'changed' if old is not None else 'new'}: {case.path.name}")
    keep = {case.path.name for case in all_cases}
    deleted = 0
    for path in sorted(TRANSCRIPTS.iterdir()):
        if path.name not in keep:
            path.unlink()
            deleted += 1
            print(f"deleted (no case produces it): {path.name}")
    return len(all_cases), changed, deleted


def main() -> None:
    written, changed, deleted = regen()
    print(
        f"{written} golden transcripts: {changed} changed or new, {deleted} stale deleted, "
        f"{written - changed} unchanged (in {TRANSCRIPTS})"
    )


if __name__ == "__main__":
    main()
