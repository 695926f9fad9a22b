// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// The two Multicall3 entry points a local chain needs, placed with `anvil_setCode` at the
// canonical Multicall3 address (0xcA11bde05977b3631167028862bE2a173976CA11):
// - `tryAggregate`: @x402/evm's facilitator batches its failure diagnostics (balance, name,
//   version, authorizationState) and its ERC-6492 simulations through it; without it every
//   failed verify collapses to "simulation failed".
// - `aggregate3`: what viem's `multicall` action calls.
// Same ABI and semantics as the real contract; stateless, so setCode without a constructor is fine.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls)
        public
        payable
        returns (Result[] memory returnData)
    {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (!success && !calls[i].allowFailure) {
                // Bubble up nothing but a fixed reason, like the real Multicall3.
                revert("Multicall3: call failed");
            }
            returnData[i] = Result(success, ret);
        }
    }
}
