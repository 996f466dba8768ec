import t from 'tap'
import { multiaddr } from '@multiformats/multiaddr'
import { AddressError, hostPort, parsePeerAddress, peerIdOf } from '../../../plugins/p2p/address.ts'

t.test('host:port, [ipv6]:port, names and multiaddrs are accepted', async (t) => {
  t.equal(parsePeerAddress('127.0.0.1:18333').toString(), '/ip4/127.0.0.1/tcp/18333')
  t.equal(parsePeerAddress('[::1]:8333').toString(), '/ip6/::1/tcp/8333')
  t.equal(parsePeerAddress('seed.example.org:8333').toString(), '/dns/seed.example.org/tcp/8333')
  const id = '12D3KooWM2YPCiCeV7KJn4V47Fk2mg4GS3NrbSfH8GaQt5Ce7XfJ'
  const ma = parsePeerAddress(`/ip4/10.0.0.1/tcp/4001/p2p/${id}`)
  t.equal(peerIdOf(ma), id)
  t.equal(peerIdOf(parsePeerAddress('10.0.0.1:1')), undefined)
})

t.test('malformed addresses are refused with the address in the message', async (t) => {
  for (const bad of ['127.0.0.1', 'host:', ':80', '1.2.3.4:70000', '1.2.3.4:0', '[nothex]:80', '/ip4/1.2.3.4/udp/5', '/ip4/999.0.0.1/tcp/1', 'a b:1']) {
    t.throws(() => parsePeerAddress(bad), AddressError, bad)
  }
})

t.test('host:port of a multiaddr, IPv6 in brackets', async (t) => {
  t.equal(hostPort(multiaddr('/ip4/127.0.0.1/tcp/5555/p2p/12D3KooWM2YPCiCeV7KJn4V47Fk2mg4GS3NrbSfH8GaQt5Ce7XfJ')), '127.0.0.1:5555')
  t.equal(hostPort(multiaddr('/ip6/::1/tcp/5')), '[::1]:5')
})
