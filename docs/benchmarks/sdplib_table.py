#!/usr/bin/python3
"""Markdown table of a whole-SDPLIB run (sdplib_run.sh OUTDIR [BENCH1.json]); not part of the test suite.

BENCH1.json (optional): `psdkit bench sdp --baseline none --json` run with -Dpsdkit.threads=1 over the whole set in
one JVM; its cpu_seconds is the 1-thread psdkit CPU column. Without it the CPU ratio uses the default-thread run's
solving-thread CPU.
"""
import json
import os
import re
import statistics
import sys

RES = 0.001  # CSDP times below 1 ms (the averaged repeat runs resolve ~0.2 ms) are counted as 1 ms in the ratios


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def times(path):
    t = read(path)
    if t is None:
        return None
    lines = t.strip().split('\n')
    rc = int(lines[-1].split()[1]) if lines[-1].startswith('rc') else None
    for ln in lines:
        p = ln.split()
        if len(p) == 3:
            try:
                e, u, s = map(float, p)
                return {'wall': e, 'cpu': u + s, 'rc': rc}
            except ValueError:
                pass
    return {'wall': None, 'cpu': None, 'rc': rc}


def csdp_status(out):
    if out is None:
        return '?', None
    its = re.findall(r'^Iter:\s*(\d+)', out, re.M)
    it = int(its[-1]) if its else None
    for key, lab in [('Partial Success', 'partial'), ('Success: SDP solved', 'success'),
                     ('primal infeasib', 'primal_infeasible'), ('dual infeasib', 'dual_infeasible'),
                     ('Stuck', 'stuck'), ('Failure', 'failure')]:
        if key in out:
            return lab, it
    return 'other', it


def main():
    out = sys.argv[1]
    bench1 = {}
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        txt = read(sys.argv[2])
        try:
            d = json.loads(txt)
            for r in d['rows']:
                r['dd'] = r['profile']['double_double_restart']
                r['cert'] = '-' if r['status'].endswith('infeasible') else 'yes' if r['certified'] else 'no'
                bench1[r['problem']] = r
        except ValueError:
            # the bench's stderr table: problem m n status it cpu_s wall_s ...
            for ln in txt.split('\n'):
                t = ln.split()
                if len(t) > 6 and re.match(r'^[a-z]', ln) and t[1].isdigit():
                    bench1[t[0]] = {'cpu_seconds': float(t[5]), 'iterations': int(t[4]), 'status': t[3],
                                    'dd': t[-1] != '-', 'm': int(t[1]), 'n': int(t[2]), 'seconds': float(t[6]),
                                    'cert': t[10]}
    rep = {}
    if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
        for ln in read(sys.argv[3]).split('\n'):
            t = ln.split()
            if len(t) == 3:
                rep[t[0]] = float(t[2])
    rows = []
    summ = {}
    for ln in read(os.path.join(out, 'summary.jsonl')).split('\n'):
        if ln.startswith('{'):
            d = json.loads(ln)
            summ[d['problem']] = d
    order = list(summ) + [p for p in bench1 if p not in summ]
    for p in order:
        s = summ.get(p, {'problem': p, 'load': float('nan')})
        raw = os.path.join(out, 'raw', p)
        c = times(raw + '.csdp.time')
        c1 = times(raw + '.csdp1.time')
        cst, cit = csdp_status(read(raw + '.csdp.out'))
        bt = times(raw + '.bench.time')
        try:
            b = json.loads(read(raw + '.bench.json'))['rows'][0]
        except (TypeError, ValueError, KeyError, IndexError):
            b = None
        if b is None and read(raw + '.bench.json') is None:
            # a LIGHT=1 row: the default-thread `sdp solve` run gives wall seconds, iterations, status and profile
            try:
                sv = json.loads(read(raw + '.solve1.json'))
                b = {'m': sv['m'], 'n': sv['n'], 'seconds': sv['seconds'], 'iterations': sv['iterations'],
                     'status': sv['status'], 'profile': sv['profile'], 'cpu_seconds': None, 'certified': None}
            except (TypeError, ValueError, KeyError):
                b = None
        try:
            chk = json.loads(read(raw + '.check.json'))
        except (TypeError, ValueError):
            chk = None
        try:
            cchk = json.loads(read(raw + '.csdpcheck.json'))
        except (TypeError, ValueError):
            cchk = None
        b1 = bench1.get(p)
        if b is None and b1 is not None and p not in summ:
            # not reached by the per-problem run: the 1-thread bench row alone (its certificate flag, no wall)
            b = {'m': b1['m'], 'n': b1['n'], 'seconds': None, 'iterations': b1['iterations'], 'status': b1['status'],
                 'profile': {'double_double_restart': b1['dd']}, 'cpu_seconds': b1['cpu_seconds'],
                 'certified': b1['cert'] == 'yes'}
            chk = {'bench': b1['cert']}
        r = {'problem': p, 'load': s['load'], 'csdp_wall': c['wall'] if c else None, 'csdp_cpu': c['cpu'] if c else None,
             'csdp1_cpu': rep.get(p, c1['cpu'] if c1 else None), 'csdp_status': cst, 'csdp_it': cit, 'bench': b,
             'bench_rc': bt['rc'] if bt else None, 'check': chk, 'csdp_check': cchk, 'b1': b1}
        if b:
            if b['seconds'] is not None and c and c['wall'] is not None:
                r['wall_ratio'] = b['seconds'] / max(c['wall'], RES)
            cpu = b1['cpu_seconds'] if b1 else b['cpu_seconds']
            if cpu is not None and r['csdp1_cpu'] is not None:
                r['cpu_ratio'] = cpu / max(r['csdp1_cpu'], RES)
        rows.append(r)
    print('| problem | m | n | CSDP wall s | CSDP cpu s (1 thr) | CSDP it / status | CSDP check | psdkit wall s '
          '| psdkit cpu s (1 thr) | psdkit it | status | dd | certificate (max rel.) | wall ratio | cpu ratio | load |')
    print('|---|---:|---:|---:|---:|---|---|---:|---:|---:|---|---|---|---:|---:|---:|')
    for r in rows:
        b = r['bench']
        b1 = r['b1']
        chk = r['check']
        cchk = r['csdp_check']
        f1 = lambda v: '–' if v is None or v != v else '%.1f' % v
        fmt = lambda v: '–' if v is None else ('%.3f' % v if v < 0.1 else '%.2f' % v)
        cert = '–' if chk is None else ('bench: ' + chk['bench']) if 'bench' in chk else ('pass' if chk.get('pass') else '**fail**') + ' %.1e' % chk.get('max', float('nan'))
        ccert = '–' if cchk is None else ('pass' if cchk.get('pass') else 'fail') + ' %.1e' % cchk.get('max', float('nan'))
        if b is None:
            print('| %s | | | %s | %s | %s / %s | %s | **time-out/failed (rc %s)** | | | | | | | | %.1f |' % (
                r['problem'], fmt(r['csdp_wall']), fmt(r['csdp1_cpu']), r['csdp_it'], r['csdp_status'], ccert,
                r['bench_rc'], r['load']))
            continue
        dd = 'yes' if b['profile']['double_double_restart'] else '–'
        cpu1 = b1['cpu_seconds'] if b1 else None
        st = b['status'] + ('' if b.get('certified') is not False or b['status'].endswith('infeasible')
                            else ' (bench: uncertified)')
        print('| %s | %d | %d | %s | %s | %s / %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |' % (
            r['problem'], b['m'], b['n'], fmt(r['csdp_wall']), fmt(r['csdp1_cpu']), r['csdp_it'], r['csdp_status'],
            ccert, fmt(b['seconds']), fmt(cpu1), b['iterations'], st, dd, cert, f1(r.get('wall_ratio')),
            f1(r.get('cpu_ratio')), f1(r['load'])))
    wr = [r['wall_ratio'] for r in rows if 'wall_ratio' in r]
    cr = [r['cpu_ratio'] for r in rows if 'cpu_ratio' in r]
    print()
    if wr:
        print('problems: %d; median wall ratio %.2f (%d problems), median cpu ratio %.2f (%d problems)' % (
            len(rows), statistics.median(wr), len(wr), statistics.median(cr), len(cr)))
        print('wall ratio > 4: %s' % ', '.join('%s (%.1f)' % (r['problem'], r['wall_ratio']) for r in rows
                                               if r.get('wall_ratio', 0) > 4))
        print('cpu ratio > 4: %s' % ', '.join('%s (%.1f)' % (r['problem'], r['cpu_ratio']) for r in rows
                                              if r.get('cpu_ratio', 0) > 4))
        print('csdp >= 0.3 s (1 thread cpu): median wall ratio %s, median cpu ratio %s' % (
            statistics.median([r['wall_ratio'] for r in rows if 'wall_ratio' in r and (r['csdp1_cpu'] or 0) >= 0.3] or [0]),
            statistics.median([r['cpu_ratio'] for r in rows if 'cpu_ratio' in r and (r['csdp1_cpu'] or 0) >= 0.3] or [0])))
    print('certificate failed: %s' % ', '.join(r['problem'] for r in rows if r['check'] and not r['check'].get('pass')
                                               and r['check'].get('bench', 'no') != 'yes'
                                               and not (r['bench'] or {}).get('status', '').endswith('infeasible')))
    print('dd restart: %s' % ', '.join(r['problem'] for r in rows if r['bench']
                                       and r['bench']['profile']['double_double_restart']))
    print('time-outs/failures: %s' % ', '.join(r['problem'] for r in rows if r['bench'] is None))


if __name__ == '__main__':
    main()
