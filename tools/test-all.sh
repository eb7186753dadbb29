#!/usr/bin/env bash
# Runs every test of the project: the Rust crate's (`cargo test --all-features`), then
# the Python package's. The package is built as the abi3 wheel users install (release,
# with maturin), installed into a virtual environment of its own under target/, and
# tested there with pytest (feedparser's corpus through the Python API when ../shared is
# beside the checkout, the API, URLs from a loopback server, threads, hostile inputs),
# and again under Python 3.9 (the oldest the wheel is for) when one is at hand.
#
#   tools/test-all.sh            # everything
#   tools/test-all.sh --python   # the Python package only
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" != "--python" ]; then
  echo "== Rust tests"
  cargo test --all-features
fi

echo "== Python package"
python=${PYTHON:-python3}
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
venv=$target/python-venv
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
# feedparser itself: python/tests/test_against_feedparser.py compares the results' shape.
"$venv/bin/python" -m pip install --quiet --upgrade "maturin>=1.16,<2" "pytest>=7" \
  "feedparser==6.0.14"
rm -rf "$target/wheels"
"$venv/bin/maturin" build --release --quiet --manifest-path python/Cargo.toml \
  --interpreter "$venv/bin/python" --out "$target/wheels"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$target"/wheels/feed_decoder-*.whl
(cd python && "$venv/bin/pytest" -q)

# The wheel is abi3, for CPython 3.9 and later: where a 3.9 interpreter is at hand (on
# the PATH, or installed by pyenv), the package is tested under it too (its stable ABI
# has no METH_FASTCALL, so the C methods take their other path there).
py39=""
if python3.9 -c "" >/dev/null 2>&1; then
  py39=python3.9
elif command -v pyenv >/dev/null 2>&1; then
  version=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.9(\.[0-9]+)?$' | tail -n 1 || true)
  if [ -n "$version" ] && "$(pyenv root)/versions/$version/bin/python3.9" -c "" 2>/dev/null; then
    py39="$(pyenv root)/versions/$version/bin/python3.9"
  fi
fi
if [ -n "$py39" ]; then
  echo "== Python package under Python 3.9 ($py39)"
  old=$target/python39-venv
  if [ ! -x "$old/bin/python" ]; then
    "$py39" -m venv "$old"
  fi
  "$old/bin/python" -m pip install --quiet --upgrade "pytest>=7"  # feedparser 6.0.14 needs 3.10
  "$old/bin/python" -m pip install --quiet --force-reinstall --no-deps "$target"/wheels/feed_decoder-*.whl
  (cd python && "$old/bin/pytest" -q -p no:cacheprovider)
fi
