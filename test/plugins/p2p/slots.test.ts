import t from 'tap'
import { Slots } from '../../../plugins/p2p/slots.ts'

t.test('at most n holders at once, the rest served in arrival order, released however a consumer stops', async (t) => {
  const slots = new Slots(2)
  const order: string[] = []
  let holding = 0
  let most = 0
  const source = (name: string) => async function * (): AsyncGenerator<string> {
    holding++
    most = Math.max(most, holding)
    try {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setImmediate(resolve))
        yield `${name}${i}`
      }
    } finally { holding-- }
  }
  const drain = async (name: string, stopAfter = Infinity): Promise<void> => {
    let n = 0
    for await (const v of slots.hold(source(name))) {
      order.push(v)
      if (++n >= stopAfter) break // the consumer gives up early (a stream that failed)
    }
  }
  await Promise.all([drain('a', 1), drain('b'), drain('c'), drain('d')])
  t.equal(most, 2, 'never more than two at once')
  t.equal(slots.waiting, 0)
  t.same(order.filter((v) => v.startsWith('a')), ['a0'], 'a stopped early and gave its slot back')
  t.ok(order.indexOf('c0') < order.indexOf('d0'), 'waiters served in arrival order')
  await drain('e') // every slot was released: this does not wait for ever
  t.ok(order.includes('e2'))
})
