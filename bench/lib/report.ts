// Benchmarks print each figure beside its baseline, measured in the same run, as one table.
export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  target?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export function printFigures(title: string, figures: Figure[]): void {
  console.log(`\n${title}`);
  const rows = figures.map((f) => ({
    figure: f.name,
    value: `${formatNumber(f.value)} ${f.unit}`,
    baseline: f.baseline === undefined ? '' : `${formatNumber(f.baseline)} ${f.unit}`,
    target: f.target ?? '',
  }));
  console.table(rows);
}

function formatNumber(n: number): string {
  return Number.isInteger(n) || Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2);
}
