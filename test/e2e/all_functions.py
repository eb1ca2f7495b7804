"""`strata-run --all-functions` for the numerics scripts (compare_all.py,
compare_targets.py): one process runs every public function of a file;
its output is split at each "function 'NAME':" line (errors go to stderr,
merged in order: strata-run flushes stdout before each function)."""
import re
import subprocess


class Run:
    def __init__(self, path, args):
        p = subprocess.run(['strata-run', path, '--all-functions'] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.returncode, self.output = p.returncode, p.stdout
        self.blocks, self.head, current = {}, [], None
        for line in p.stdout.splitlines():
            m = re.fullmatch(r"function '([\w$.-]+)':", line)
            if m:
                current = self.blocks.setdefault(m.group(1), [])
            elif current is not None:
                current.append(line)
            else:
                self.head.append(line)
        m = re.search(r'^(\d+) functions?, (\d+) failed$', p.stdout, re.M)
        self.summary = m.group(0) if m else None

    def block(self, name):
        """The lines strata-run printed for `name` (None if it never got
        there), without the run's summary line."""
        b = self.blocks.get(name)
        if b is not None and self.summary in b:
            b = b[:b.index(self.summary)]
        return b

    def ok(self, name):
        b = self.block(name)
        return b is not None and self.summary is not None and 'FAILED' not in b and \
            not any('MISMATCH' in l for l in b)

    def why(self, name):
        """What to print for a function that failed."""
        b = self.block(name)
        if b is None:  # never reached: the run stopped before it
            return '\n'.join(self.head + ['(strata-run exited with %d before this function)' % self.returncode])
        return '\n'.join(l for l in b if l != 'FAILED')

    def complete(self, names):
        """True if the run ended normally and reported every one of `names`."""
        return self.summary is not None and self.returncode in (0, 1) and \
            all(n in self.blocks for n in names) and len(self.blocks) == len(names)
