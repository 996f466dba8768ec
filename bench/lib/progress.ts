// Progress lines on stderr, so stdout carries only the table (and can be piped).
export type ProgressSink = (line: string) => void

const toStderr: ProgressSink = (line) => { process.stderr.write(line + '\n') }

/** A progress function for one family: "[pow +12.3s] message". */
export function familyProgress (family: string, started: number, sink: ProgressSink = toStderr): (message: string) => void {
  return (message) => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    sink(`[${family} +${seconds}s] ${message}`)
  }
}
