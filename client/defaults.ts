// Constants of the client that a caller may need without loading the client (and its
// crypto): `ledger --help` prints the default node URL.

/** the dashboard of a node on this machine with the default ports */
export const DEFAULT_NODE_URL = 'http://127.0.0.1:8080'
