// Whatever way the test bed's process ends (Ctrl-C, SIGTERM, an exception, a normal exit),
// `cleanup` runs once, synchronously (it kills the node process groups and removes the data
// dirs); a signal then ends the process with the usual 128+n code.
export function onAnyExit (cleanup: () => void): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    cleanup()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.on('exit', cleanup)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return () => {
    process.off('exit', cleanup)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
