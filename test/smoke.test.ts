import t from 'tap'
const x: number = 1
t.equal(x, 1, `node ${process.version}`)
