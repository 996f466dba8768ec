import type { Example } from './types.ts'

export const guestbook: Example = {
  id: 'guestbook',
  title: 'Guestbook',
  description: 'Visitors sign with a short message (up to 32 bytes). Every entry keeps its author and block height, and signing emits an event. Shows maps and bytes32.',
  source: `// A guestbook: each entry is a message of up to 32 bytes, its author and the block it was signed in.
contract Guestbook {
    storage entry_count: uint @ 0;
    storage messages: map<uint, bytes32> @ 1;
    storage authors: map<uint, address> @ 2;
    storage heights: map<uint, uint> @ 3;
    storage signed_by: map<address, uint> @ 4;

    event Signed(author: address indexed, index: uint indexed, message: bytes32);

    pub fn sign(message: bytes32) -> uint {
        require(message != 0 as bytes32, "the message is empty");
        let index = entry_count;
        messages[index] = message;
        authors[index] = caller();
        heights[index] = block_height();
        signed_by[caller()] += 1;
        entry_count = index + 1;
        emit Signed(caller(), index, message);
        return index;
    }

    pub fn count() -> uint {
        return entry_count;
    }

    pub fn message(index: uint) -> bytes32 {
        require(index < entry_count, "no such entry");
        return messages[index];
    }

    pub fn author(index: uint) -> address {
        require(index < entry_count, "no such entry");
        return authors[index];
    }

    pub fn height(index: uint) -> uint {
        require(index < entry_count, "no such entry");
        return heights[index];
    }

    pub fn entries_by(who: address) -> uint {
        return signed_by[who];
    }
}
`
}
