/**
 * A small SVG chart for the bench's output folder: one panel per invoice size (each with its own
 * scale: a 200-line render takes several times a 1-line one), one bar per target with its value.
 * Plain SVG text, no library: a few rectangles and labels.
 */
export interface ChartGroup {
  label: string;
  bars: { name: string; value: number }[];
}

const COLOURS = ['#1f6feb', '#8c959f', '#57606a', '#bf8700', '#cf222e', '#1a7f37'];
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function barChartSvg(title: string, unit: string, groups: ChartGroup[]): string {
  const names = [...new Set(groups.flatMap((group) => group.bars.map((bar) => bar.name)))];
  const panelWidth = 60 + names.length * 56;
  const height = 300;
  const top = 56;
  const plot = height - top - 44;
  const width = Math.max(groups.length * panelWidth + 20, 420);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="18" font-size="13" font-weight="bold">${escape(title)}</text>`,
    ...names.map(
      (name, index) =>
        `<rect x="${10 + index * 110}" y="28" width="10" height="10" fill="${COLOURS[index % COLOURS.length]}"/><text x="${24 + index * 110}" y="37">${escape(name)}</text>`,
    ),
  ];
  groups.forEach((group, panel) => {
    const left = 20 + panel * panelWidth;
    const max = Math.max(...group.bars.map((bar) => bar.value), Number.EPSILON);
    parts.push(
      `<line x1="${left}" y1="${top + plot}" x2="${left + panelWidth - 30}" y2="${top + plot}" stroke="#57606a"/>`,
    );
    group.bars.forEach((bar) => {
      const barHeight = Math.max(1, (bar.value / max) * (plot - 14));
      const x = left + 8 + names.indexOf(bar.name) * 56;
      const y = top + plot - barHeight;
      parts.push(
        `<rect x="${x}" y="${y.toFixed(1)}" width="40" height="${barHeight.toFixed(1)}" fill="${COLOURS[names.indexOf(bar.name) % COLOURS.length]}"/>`,
      );
      parts.push(
        `<text x="${x + 20}" y="${(y - 3).toFixed(1)}" text-anchor="middle">${bar.value.toFixed(bar.value < 10 ? 1 : 0)}</text>`,
      );
    });
    parts.push(
      `<text x="${left + (panelWidth - 30) / 2}" y="${top + plot + 18}" text-anchor="middle">${escape(group.label)}</text>`,
    );
  });
  parts.push(`<text x="10" y="${height - 6}" fill="#57606a">${escape(unit)}</text>`, '</svg>');
  return `${parts.join('\n')}\n`;
}
