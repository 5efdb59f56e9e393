"""The scripts and benchmarks one runs by hand: ``--help`` says what each does and does
nothing else (a script that read its own options by hand took ``--help`` for none, and
made every README screenshot again)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNABLE = sorted(path for folder in ("scripts", "benchmarks")
                  for path in (ROOT / folder).glob("*.py")
                  if 'if __name__ in {"__main__"' in path.read_text()
                  or 'if __name__ == "__main__"' in path.read_text())


def tracked_changes() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def test_every_script_answers_help_and_does_nothing_else() -> None:
    """All at once (each mostly imports): exit 0, a usage line, and no file changed."""
    assert len(RUNNABLE) >= 12, RUNNABLE
    before = tracked_changes()
    running = [(path, subprocess.Popen([sys.executable, str(path), "--help"], cwd=ROOT,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       text=True)) for path in RUNNABLE]
    for path, process in running:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, (path.name, err[-500:])
        assert out.startswith("usage:"), (path.name, out[:200])
    assert tracked_changes() == before
