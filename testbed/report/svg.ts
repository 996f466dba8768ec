// Tiny inline-SVG line and step plots for the HTML report: no library, no script, so the report
// is one file that opens anywhere.
export interface Series { label: string; points: Array<[number, number]>; color: string; step?: boolean; dashed?: boolean }
export interface PlotMarker { x: number; label: string }

const W = 720
const H = 300
const PAD = { l: 56, r: 16, t: 16, b: 40 }

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#637939']

export function plot (o: { title: string; xLabel: string; yLabel: string; series: Series[]; markers?: PlotMarker[]; dots?: Array<{ x: number; y: number; label: string }>; yFromZero?: boolean }): string {
  const all = o.series.flatMap((s) => s.points)
  if (all.length === 0) return `<figure><figcaption>${esc(o.title)}</figcaption><p>no data</p></figure>`
  const xs = all.map((p) => p[0])
  const ys = all.map((p) => p[1])
  const x0 = Math.min(...xs); const x1 = Math.max(...xs, x0 + 1e-9)
  const y0 = o.yFromZero === false ? Math.min(...ys) : Math.min(0, ...ys); const y1 = Math.max(...ys, y0 + 1e-9)
  const sx = (x: number): number => PAD.l + (x - x0) / (x1 - x0) * (W - PAD.l - PAD.r)
  const sy = (y: number): number => H - PAD.b - (y - y0) / (y1 - y0) * (H - PAD.t - PAD.b)
  const path = (s: Series): string => {
    let d = ''
    s.points.forEach(([x, y], i) => {
      if (i === 0) d += `M${sx(x).toFixed(1)},${sy(y).toFixed(1)}`
      else if (s.step === true) d += `H${sx(x).toFixed(1)}V${sy(y).toFixed(1)}`
      else d += `L${sx(x).toFixed(1)},${sy(y).toFixed(1)}`
    })
    return `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.5"${s.dashed === true ? ' stroke-dasharray="5,4"' : ''}><title>${esc(s.label)}</title></path>`
  }
  const ticks = (a: number, b: number): number[] => Array.from({ length: 6 }, (_, i) => a + (b - a) * i / 5)
  const fmt = (v: number): string => Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(1) : v.toFixed(2)
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<line x1="${PAD.l}" y1="${H - PAD.b}" x2="${W - PAD.r}" y2="${H - PAD.b}" stroke="#333"/><line x1="${PAD.l}" y1="${PAD.t}" x2="${PAD.l}" y2="${H - PAD.b}" stroke="#333"/>`,
    ...ticks(x0, x1).map((v) => `<text x="${sx(v).toFixed(1)}" y="${H - PAD.b + 14}" text-anchor="middle">${fmt(v)}</text>`),
    ...ticks(y0, y1).map((v) => `<text x="${PAD.l - 6}" y="${(sy(v) + 4).toFixed(1)}" text-anchor="end">${fmt(v)}</text>`),
    `<text x="${(W + PAD.l) / 2}" y="${H - 6}" text-anchor="middle">${esc(o.xLabel)}</text>`,
    `<text x="12" y="${(H - PAD.b) / 2}" transform="rotate(-90 12 ${(H - PAD.b) / 2})" text-anchor="middle">${esc(o.yLabel)}</text>`,
    ...(o.markers ?? []).map((m) => `<line x1="${sx(m.x).toFixed(1)}" y1="${PAD.t}" x2="${sx(m.x).toFixed(1)}" y2="${H - PAD.b}" stroke="#999" stroke-dasharray="2,3"/><text x="${(sx(m.x) + 3).toFixed(1)}" y="${PAD.t + 10}" fill="#555">${esc(m.label)}</text>`),
    ...o.series.map(path),
    ...(o.dots ?? []).map((d) => `<circle cx="${sx(d.x).toFixed(1)}" cy="${sy(d.y).toFixed(1)}" r="3.5" fill="none" stroke="#d62728" stroke-width="1.5"><title>${esc(d.label)}</title></circle>`),
    '</svg>'
  ]
  const legend = o.series.map((s) => `<span style="color:${s.color}">■ ${esc(s.label)}</span>`).join(' ')
  return `<figure><figcaption>${esc(o.title)}</figcaption>${parts.join('')}<div class="legend">${legend}</div></figure>`
}
