// Number formatting for the table: thousands separators, three significant digits below 100.
export function formatNumber (value: number): string {
  if (!Number.isFinite(value)) return String(value)
  const abs = Math.abs(value)
  if (abs >= 100) return Math.round(value).toLocaleString('en-US')
  if (abs >= 10) return value.toFixed(1)
  if (abs >= 1) return value.toFixed(2)
  if (abs === 0) return '0'
  return value.toPrecision(3)
}

export function formatRatio (value: number): string {
  return `${value.toFixed(2)}×`
}

export function formatBytes (bytes: number): string {
  if (bytes >= 1 << 20) return `${bytes / (1 << 20)} MB`
  if (bytes >= 1024) return `${bytes / 1024} KB`
  return `${bytes} B`
}
