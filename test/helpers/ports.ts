// Ports for the processes a test starts (a node binds them seconds after the pick). A port
// the kernel hands out for port 0 comes from its ephemeral range (32768-60999 here), which
// every outgoing connection of every process also draws its source port from: in a busy
// suite one took a picked port before the node bound it ("address already in use"). So ports
// are picked below that range (the test bed's picker), each tap job (TAP_JOB_ID) in a slice of
// its own, from a random point of the slice, and only if they can be bound now.
import { portPicker } from '../../testbed/node/ports.ts'

const FIRST = 20_000
const SLICE = 3_000
const SLICES = 4

/** a port on 127.0.0.1 nothing holds now, outside the ephemeral range, not handed out before by this process */
export const freePort = portPicker(FIRST + (Number(process.env.TAP_JOB_ID ?? 0) % SLICES) * SLICE, SLICE)
