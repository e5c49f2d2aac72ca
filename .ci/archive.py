"""Packs the release binary of one target into an archive for the GitHub release.

Usage: python .ci/archive.py TARGET [WHEEL_DIR [OUT_DIR]]

The binary is the one in the wheel maturin built for TARGET (in WHEEL_DIR,
default dist/; `bindings = "bin"` puts it under *.data/scripts/), so the
archive and the wheel carry the same build: on Linux a manylinux build, which
runs on old glibc too. Writes OUT_DIR (default archive/)
treequiz-VERSION-TARGET.tar.gz, or .zip for Windows targets, holding
treequiz-VERSION-TARGET/treequiz[.exe] with README.md and the licence files
found at the top of the repository. Python's standard library only: the same
on Linux, macOS and Windows runners. (.github/workflows/release.yml)
"""

import glob
import io
import os
import stat
import sys
import tarfile
import zipfile


def main(argv):
    if len(argv) < 2 or len(argv) > 4:
        sys.exit(__doc__.split("\n\n")[1])
    target = argv[1]
    wheel_dir = argv[2] if len(argv) > 2 else "dist"
    out_dir = argv[3] if len(argv) > 3 else "archive"
    windows = "windows" in target
    exe = "treequiz.exe" if windows else "treequiz"

    wheels = sorted(glob.glob(os.path.join(wheel_dir, "*.whl")))
    if len(wheels) != 1:
        sys.exit(f".ci/archive.py: expected one wheel in {wheel_dir}/, found {len(wheels)}: {wheels}")
    with zipfile.ZipFile(wheels[0]) as whl:
        names = [n for n in whl.namelist() if n.endswith(".data/scripts/" + exe)]
        if len(names) != 1:
            sys.exit(f".ci/archive.py: no {exe} under *.data/scripts/ in {wheels[0]}")
        binary = whl.read(names[0])
        # treequiz-0.1.0.data/scripts/treequiz: the version as the wheel spells it
        version = names[0].split("/")[0][len("treequiz-"):-len(".data")]

    base = f"treequiz-{version}-{target}"
    members = [(f"{base}/{exe}", binary, 0o755)]
    for extra in ["README.md", *sorted(glob.glob("LICENSE*")), *sorted(glob.glob("LICENCE*"))]:
        if os.path.isfile(extra):
            with open(extra, "rb") as f:
                members.append((f"{base}/{extra}", f.read(), 0o644))

    os.makedirs(out_dir, exist_ok=True)
    if windows:
        path = os.path.join(out_dir, base + ".zip")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data, mode in members:
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = (stat.S_IFREG | mode) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
    else:
        path = os.path.join(out_dir, base + ".tar.gz")
        with tarfile.open(path, "w:gz") as t:
            for name, data, mode in members:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mode = mode
                t.addfile(info, io.BytesIO(data))
    print(f"{path}: {os.path.getsize(path)} bytes ({', '.join(n for n, _, _ in members)})")


if __name__ == "__main__":
    main(sys.argv)
