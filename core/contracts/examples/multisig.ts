import type { Example } from './types.ts'

export const multisig: Example = {
  id: 'multisig',
  title: 'Multisig wallet',
  description: 'A wallet that pays out only when enough owners approve. The deployer adds owners and sets the threshold, then seals the owner set; owners then propose payments, approve them, and execute them once the threshold is met (the payment is a transfer). Shows nested maps, internal functions, value and transfer.',
  source: `// A multi-owner wallet: a payment leaves only after \`threshold\` owners approved it.
// Setup: the deployer calls add_owner / set_threshold, then seal(). Fund it with deposit().
contract Multisig {
    storage owners: map<address, bool> @ 0;
    storage owner_count: uint @ 1;
    storage threshold: uint @ 2;
    storage creator: address @ 3;
    storage sealed: bool @ 4;
    storage proposal_count: uint @ 5;
    storage proposal_to: map<uint, address> @ 6;
    storage proposal_amount: map<uint, uint> @ 7;
    storage proposal_approvals: map<uint, uint> @ 8;
    storage proposal_executed: map<uint, bool> @ 9;
    storage approved: map<uint, map<address, bool>> @ 10;

    event OwnerAdded(owner: address indexed);
    event Deposited(from: address indexed, amount: uint);
    event Proposed(id: uint indexed, proposer: address indexed, to: address, amount: uint);
    event Approved(id: uint indexed, owner: address indexed, approvals: uint);
    event Executed(id: uint indexed, to: address indexed, amount: uint);

    fn init() {
        creator = caller();
        owners[caller()] = true;
        owner_count = 1;
        threshold = 1;
        emit OwnerAdded(caller());
    }

    // ---- setup, by the deployer, until seal() ----

    fn only_creator_unsealed() {
        require(caller() == creator, "only the creator configures the wallet");
        require(!sealed, "the owner set is sealed");
    }

    pub fn add_owner(who: address) {
        only_creator_unsealed();
        require(!owners[who], "already an owner");
        owners[who] = true;
        owner_count += 1;
        emit OwnerAdded(who);
    }

    pub fn set_threshold(n: uint) {
        only_creator_unsealed();
        require(n >= 1 && n <= owner_count, "threshold must be between 1 and the number of owners");
        threshold = n;
    }

    pub fn seal() {
        only_creator_unsealed();
        sealed = true;
    }

    // ---- funds and payments ----

    pub fn deposit() -> uint {
        emit Deposited(caller(), value());
        return balance(self());
    }

    fn only_owner() {
        require(owners[caller()], "not an owner");
    }

    fn open_proposal(id: uint) {
        require(id < proposal_count, "no such proposal");
        require(!proposal_executed[id], "already executed");
    }

    pub fn propose(to: address, amount: uint) -> uint {
        only_owner();
        require(sealed, "seal the owner set first");
        let id = proposal_count;
        proposal_count = id + 1;
        proposal_to[id] = to;
        proposal_amount[id] = amount;
        emit Proposed(id, caller(), to, amount);
        record_approval(id);
        return id;
    }

    pub fn approve(id: uint) -> uint {
        only_owner();
        open_proposal(id);
        return record_approval(id);
    }

    fn record_approval(id: uint) -> uint {
        require(!approved[id][caller()], "already approved");
        approved[id][caller()] = true;
        proposal_approvals[id] += 1;
        emit Approved(id, caller(), proposal_approvals[id]);
        return proposal_approvals[id];
    }

    pub fn execute(id: uint) {
        only_owner();
        open_proposal(id);
        require(proposal_approvals[id] >= threshold, "not enough approvals");
        let amount = proposal_amount[id];
        require(balance(self()) >= amount, "the wallet cannot cover the payment");
        proposal_executed[id] = true;
        transfer(proposal_to[id], amount);
        emit Executed(id, proposal_to[id], amount);
    }

    // ---- views ----

    pub fn is_owner(who: address) -> bool { return owners[who]; }
    pub fn owners_total() -> uint { return owner_count; }
    pub fn required() -> uint { return threshold; }
    pub fn is_sealed() -> bool { return sealed; }
    pub fn proposals() -> uint { return proposal_count; }
    pub fn approvals(id: uint) -> uint { return proposal_approvals[id]; }
    pub fn has_approved(id: uint, who: address) -> bool { return approved[id][who]; }
    pub fn executed(id: uint) -> bool { return proposal_executed[id]; }
    pub fn payee(id: uint) -> address { return proposal_to[id]; }
    pub fn amount_of(id: uint) -> uint { return proposal_amount[id]; }
}
`
}
