import type { Example } from './types.ts'

export const counter: Example = {
  id: 'counter',
  title: 'Counter',
  description: 'A number anyone can increase and only the deployer can reset. Shows storage, events, require and init().',
  source: `// A counter anyone can increase; only the account that deployed it can reset it.
contract Counter {
    storage count: uint @ 0;
    storage owner: address @ 1;

    event Incremented(by: uint indexed, total: uint);
    event Reset(by: address indexed, previous: uint);

    // runs once, at deploy
    fn init() {
        owner = caller();
    }

    pub fn increment(by: uint) -> uint {
        require(by > 0, "increment must be positive");
        count += by;
        emit Incremented(by, count);
        return count;
    }

    pub fn get() -> uint {
        return count;
    }

    pub fn reset() {
        require(caller() == owner, "only the owner can reset");
        emit Reset(caller(), count);
        count = 0;
    }
}
`
}
