// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC3009} from "@openzeppelin/contracts/token/ERC20/extensions/draft-ERC3009.sol";

/// @notice Stand-in for USDC on local chains and in tests: 6 decimals, EIP-2612 permit, EIP-3009
/// transfers with authorization as USDC has them (random bytes32 nonces, the v,r,s functions,
/// `authorizationState`, `cancelAuthorization`; both share one EIP-712 domain, name
/// "USD Coin (test)", version "1"), and a mint anyone may call. Never deploy it where real value
/// is at stake.
contract TestUSDC is ERC20, ERC20Permit, ERC3009 {
    constructor() ERC20("USD Coin (test)", "USDC") ERC20Permit("USD Coin (test)") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
