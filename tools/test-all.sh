#!/usr/bin/env bash
# Runs every test of the project: the Rust crate's (`cargo test --all-features`), then
# the Python package's. The package is built as the abi3 wheel users install (release,
# with maturin), installed into a virtual environment of its own under target/, and
# tested there with pytest (feedparser's corpus through the Python API when ../shared is
# beside the checkout, the API, URLs from a loopback server, threads, hostile inputs).
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
"$venv/bin/python" -m pip install --quiet --upgrade "maturin>=1.16,<2" "pytest>=7"
rm -rf "$target/wheels"
"$venv/bin/maturin" build --release --quiet --manifest-path python/Cargo.toml \
  --interpreter "$venv/bin/python" --out "$target/wheels"
"$venv/bin/python" -m pip install --quiet --force-reinstall --no-deps "$target"/wheels/feed_decoder-*.whl
(cd python && "$venv/bin/pytest" -q)
