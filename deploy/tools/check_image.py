#!/usr/bin/env python3
"""Static check that the production image ships no bank emulator; driven by ci/check-deploy.sh.

  check_image.py DOCKERFILE [REPO_ROOT]

The image cannot be built everywhere the checks run, so what makes it emulator-free is asserted on the
Dockerfile and the sources instead:

  1. the build stage copies the built `dist/` folders into /out, deletes every
     `services/*/dist/emulator` there, and fails its own RUN when anything named *emulator* is left
     (`! find /out -path '*emulator*' | grep -q .`), after the copy and in the same RUN;
  2. the runtime stage takes code only from that /out (and prod node_modules): no `COPY . .`, no
     copy of sources, of the build stage's /app or of any dist folder directly;
  3. no bank package's runtime code (`src/`, tests aside) imports its emulator, so deleting
     `dist/emulator` cannot break a service; each bank package exposes the emulator only as its
     `./emulator` export, never from its main entry;
  4. when the services are built, no `dist/src` file of a bank package requires its emulator.

Exit status 0 = pass, 1 = fail; findings go to stdout, one per line.
"""
import glob
import json
import os
import re
import sys


def stages(dockerfile_text):
    """[(name, [instruction lines joined across continuations])] per FROM stage."""
    joined, buf = [], ''
    for line in dockerfile_text.splitlines():
        s = line.strip()
        if not buf and (not s or s.startswith('#')):
            continue
        if buf and s.startswith('#'):
            continue
        if s.endswith('\\'):
            buf += s[:-1] + ' '
            continue
        joined.append(buf + s)
        buf = ''
    if buf:
        joined.append(buf)
    out = []
    for ins in joined:
        m = re.match(r'FROM\s+\S+(?:\s+AS\s+(\S+))?', ins, re.I)
        if m:
            out.append((m.group(1) or '', []))
        elif out:
            out[-1][1].append(ins)
    return out


def main(dockerfile, root='.'):
    problems, notes = [], []
    with open(dockerfile, encoding='utf8') as f:
        ordered = stages(f.read())
    st = dict(ordered)

    # 0. A plain build (no --target) produces the switch image: `runtime` is the last stage, so a
    # test-only stage (the emulators image) is built only when asked for by name.
    if ordered and ordered[-1][0] != 'runtime':
        problems.append(f'the last stage is "{ordered[-1][0]}", not "runtime": a plain build would not produce the switch image')

    # 1. The build stage removes the emulators from /out and proves none is left.
    build = st.get('build')
    if build is None:
        problems.append('Dockerfile has no "build" stage')
    else:
        runs = [i for i in build if i.upper().startswith('RUN') and '/out' in i]
        ok = False
        for r in runs:
            copy_at = r.find('cp -a')
            rm = re.search(r'rm -rf\s+/out/services/\*/dist/emulator\b', r)
            guard = re.search(r"!\s*find\s+/out\s+-path\s+'\*emulator\*'\s*\|\s*grep\s+-q\s+\.", r)
            if copy_at >= 0 and rm and guard and copy_at < rm.start() < guard.start():
                ok = True
        if ok:
            notes.append('build stage: /out gets dist/, then rm -rf /out/services/*/dist/emulator, then fails if any *emulator* path is left')
        else:
            problems.append("build stage: no RUN that copies dist/ into /out, then runs `rm -rf /out/services/*/dist/emulator`, then `! find /out -path '*emulator*' | grep -q .`")

    # 2. The runtime stage takes code only from the build stage's /out.
    runtime = st.get('runtime')
    if runtime is None:
        problems.append('Dockerfile has no "runtime" stage')
    else:
        for ins in runtime:
            if not ins.upper().startswith(('COPY', 'ADD')):
                continue
            m = re.match(r'(?:COPY|ADD)\s+(?:--\S+\s+)*(.+)$', ins, re.I)
            src = (m.group(1).split()[0] if m else '')
            frm = re.search(r'--from=(\S+)', ins)
            allowed = (frm and frm.group(1) == 'build' and src in ('/out/', '/out')) or (frm and frm.group(1) == 'prod-deps' and src in ('/app/', '/app'))
            if not allowed:
                problems.append(f'runtime stage: "{ins}" copies something other than the build stage\'s /out or prod-deps\' node_modules')
        if not problems:
            notes.append('runtime stage: code comes only from build:/out/ and prod-deps:/app/')

    # 3. No bank's runtime code imports its emulator; the emulator is only the ./emulator export.
    banks = sorted(glob.glob(os.path.join(root, 'services', 'bank-*')))
    for bank in banks:
        name = os.path.basename(bank)
        if not os.path.isdir(os.path.join(bank, 'emulator')):
            continue
        for path in sorted(glob.glob(os.path.join(bank, 'src', '**', '*.ts'), recursive=True)):
            if path.endswith('.test.ts'):
                continue
            with open(path, encoding='utf8') as f:
                text = f.read()
            if re.search(r"""(?:from|import\(|require\()\s*['"][^'"]*emulator[^'"]*['"]""", text):
                problems.append(f'{os.path.relpath(path, root)}: runtime code imports an emulator (deleted from the image)')
        pkg_path = os.path.join(bank, 'package.json')
        with open(pkg_path, encoding='utf8') as f:
            pkg = json.load(f)
        exports = pkg.get('exports') or {}
        main_entry = pkg.get('main', '')
        if 'emulator' in main_entry or 'emulator' in str(exports.get('.', '')):
            problems.append(f'{name}/package.json: the main entry points at the emulator')
        emu = exports.get('./emulator')
        if emu is not None and not str(emu).startswith('./dist/emulator/'):
            problems.append(f'{name}/package.json: ./emulator export {emu} is outside dist/emulator (the folder the image deletes)')

        # 4. A built tree: no dist/src file requires the emulator.
        for path in sorted(glob.glob(os.path.join(bank, 'dist', 'src', '**', '*.js'), recursive=True)):
            with open(path, encoding='utf8') as f:
                text = f.read()
            if re.search(r"""require\(\s*['"][^'"]*emulator[^'"]*['"]\s*\)|from\s+['"][^'"]*emulator""", text):
                problems.append(f'{os.path.relpath(path, root)}: built runtime code requires an emulator')
    with_emulator = [b for b in banks if os.path.isdir(os.path.join(b, 'emulator'))]
    notes.append(f'{len(with_emulator)} bank packages with an emulator: runtime code never imports it; it is only their ./emulator export')

    for p in problems:
        print(f'  {p}')
    if not problems:
        for n in notes:
            print(f'  {n}')
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
