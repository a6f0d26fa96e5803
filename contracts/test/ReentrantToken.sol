// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice Test token that, on its next transfer, calls `target` with `data` (e.g. the escrow's
/// `release` or `withdraw`) and records the outcome instead of failing, so a test can see that
/// the reentrant call was refused while the outer transfer still went through.
contract ReentrantToken is ERC20 {
    address public target;
    bytes public data;
    bool public lastCallOk;
    bytes public lastCallResult;

    constructor() ERC20("Reentrant USD", "RUSD") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// One-shot: the hook clears itself before calling, so it cannot recurse.
    function setHook(address target_, bytes calldata data_) external {
        target = target_;
        data = data_;
    }

    function _update(address from, address to, uint256 value) internal override {
        address hookTarget = target;
        if (hookTarget != address(0)) {
            target = address(0);
            (lastCallOk, lastCallResult) = hookTarget.call(data);
        }
        super._update(from, to, value);
    }
}
