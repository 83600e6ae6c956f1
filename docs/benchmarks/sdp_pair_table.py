#!/usr/bin/python3
"""Before/after table of two `psdkit bench sdp --baseline none --json` runs over the same problems (not a test).

Usage: sdp_pair_table.py BEFORE.json AFTER.json [REFERENCE.json ...]

"same" compares everything a row reports except its times (status, iterations, objective and relative gap to the
last bit, errors against the published and CSDP values, the certificate, and the profile's double iterations and
restart flag) between BEFORE and AFTER and with every REFERENCE run. The ratios are AFTER / BEFORE of the solving
thread's CPU seconds and of the solver's wall seconds.
"""
import json
import statistics
import sys

TIMES = {'cpu_seconds', 'seconds', 'profile'}


def rows(path):
    with open(path) as f:
        return {r['problem']: r for r in json.load(f)['rows']}


def same(a, b):
    if any(a.get(k) != b.get(k) for k in a if k not in TIMES):
        return False
    pa, pb = a.get('profile', {}), b.get('profile', {})
    return all(pa.get(k) == pb.get(k) for k in ('double_iterations', 'double_double_restart'))


def main():
    before, after = rows(sys.argv[1]), rows(sys.argv[2])
    refs = [rows(p) for p in sys.argv[3:]]
    print('| problem | status | it | dd | cert | objective | same | before cpu_s | after cpu_s | cpu | wall |')
    print('|---|---|---:|---|---|---:|---|---:|---:|---:|---:|')
    cpu_ratios, wall_ratios, identical = [], [], 0
    sums = [0.0, 0.0, 0.0, 0.0]
    for p, b in before.items():
        a = after[p]
        ok = same(b, a) and all(same(r[p], a) for r in refs if p in r)
        identical += ok
        cr = a['cpu_seconds'] / b['cpu_seconds']
        wr = a['seconds'] / b['seconds']
        cpu_ratios.append(cr)
        wall_ratios.append(wr)
        sums[0] += b['cpu_seconds']
        sums[1] += a['cpu_seconds']
        sums[2] += b['seconds']
        sums[3] += a['seconds']
        obj = a.get('objective')
        print(f"| {p} | {a['status']} | {a['iterations']} | {'yes' if a['profile']['double_double_restart'] else ''} | "
              f"{'yes' if a.get('certified') else 'no'} | {obj:.9g} | {'yes' if ok else '**no**'} | "
              f"{b['cpu_seconds']:.3f} | {a['cpu_seconds']:.3f} | {cr:.2f} | {wr:.2f} |"
              if isinstance(obj, float) else
              f"| {p} | {a['status']} | {a['iterations']} | | {'yes' if a.get('certified') else 'no'} | – | "
              f"{'yes' if ok else '**no**'} | {b['cpu_seconds']:.3f} | {a['cpu_seconds']:.3f} | {cr:.2f} | {wr:.2f} |")
    print()
    print(f"identical: {identical} of {len(before)}; CPU sum {sums[0]:.1f} -> {sums[1]:.1f} s "
          f"({sums[1] / sums[0]:.3f}x), wall sum {sums[2]:.1f} -> {sums[3]:.1f} s ({sums[3] / sums[2]:.3f}x); "
          f"median ratio CPU {statistics.median(cpu_ratios):.3f}, wall {statistics.median(wall_ratios):.3f}")


if __name__ == '__main__':
    main()
