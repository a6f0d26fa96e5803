// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test token that, like USDC, refuses to move funds to or from a blacklisted address.
/// With `quiet` set, `transfer` to a blacklisted address returns false instead of reverting, as
/// some older tokens do; the escrow must treat both the same way.
contract BlacklistToken is ERC20 {
    mapping(address account => bool) public blacklisted;
    bool public quiet;

    error Blacklisted(address account);

    constructor() ERC20("Blacklist USD", "BUSD") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setBlacklisted(address account, bool value) external {
        blacklisted[account] = value;
    }

    function setQuiet(bool value) external {
        quiet = value;
    }

    function transfer(address to, uint256 value) public override returns (bool) {
        if (quiet && blacklisted[to]) return false;
        return super.transfer(to, value);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (blacklisted[from]) revert Blacklisted(from);
        if (blacklisted[to]) revert Blacklisted(to);
        super._update(from, to, value);
    }
}
