// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC3009} from "@openzeppelin/contracts/interfaces/draft-IERC3009.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

/// @title Escrow for agent rentals paid in USDC.
/// @notice The service signs an EIP-712 quote; the renter pays price + fee into escrow. Each rental
/// is paid for the service it got: once it has ended, the operator settles it by measured
/// availability (`settle`): the renter gets back the refund the service computed off chain from the
/// rental's down minutes, the owner the rest of the price, the treasury the fee, and the hash of the
/// down-minute list is recorded in RentalSettled. Nobody else can release a rental before its
/// availability is settled: only from SETTLE_GRACE after the end may anyone release it in full
/// (owner gets the price, treasury the fee), so nothing stays stuck if the operator is gone. The
/// renter may dispute once, before the end; the owner may accept (a full refund), an arbiter may
/// refund all or part of the price or reject the dispute, and after DISPUTE_TIMEOUT anyone may
/// settle it as a full refund. Single answers are sold too: the operator redeems a caller's
/// EIP-3009 authorization to this contract (`payForMessage`) once the owner's agent has answered,
/// crediting the owner the price and the treasury the fee. See docs/escrow.md.
contract RentalEscrow is AccessControl, Pausable, EIP712, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    bytes32 public constant QUOTE_SIGNER_ROLE = keccak256("QUOTE_SIGNER_ROLE");
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");
    bytes32 public constant ARBITER_ROLE = keccak256("ARBITER_ROLE");

    bytes32 public constant QUOTE_TYPEHASH = keccak256(
        "Quote(bytes32 rentalId,address renter,address owner,uint256 price,uint256 fee,uint64 duration,uint64 deadline)"
    );

    bytes32 public constant EXTENSION_TYPEHASH = keccak256(
        "Extension(bytes32 rentalId,address renter,uint256 addedPrice,uint256 fee,uint64 addedSeconds,uint64 endsAt,uint64 deadline)"
    );

    enum Status {
        None,
        Active,
        Disputed,
        Released,
        Refunded
    }

    /// @notice Who ended a dispute (DisputeResolved.how).
    enum Resolution {
        Arbiter,
        OwnerAccepted,
        Expired
    }

    /// @notice A dispute nobody decided within this time may be settled by anyone, as a full refund:
    /// the owner could accept and the arbiter could decide either way all that time.
    uint256 public constant DISPUTE_TIMEOUT = 14 days;

    /// @notice How long after a rental's end only the operator may pay it out (`settle`, by measured
    /// availability); from `endsAt + SETTLE_GRACE` anyone may `release` it in full.
    uint256 public constant SETTLE_GRACE = 24 hours;

    struct Quote {
        bytes32 rentalId;
        address renter;
        address owner;
        uint256 price;
        uint256 fee;
        uint64 duration;
        uint64 deadline;
    }

    /// @notice A signed extension of a running rental (`extendRental`): the renter pays `addedPrice`
    /// + `fee` into escrow and the rental's end moves by `addedSeconds`. The extended rental stays
    /// one rental: price and fee grow, and settlement, disputes and refunds apply to the totals.
    /// `endsAt` is the end it extends (the rental's current end): once redeemed the end has moved,
    /// so one signed extension is redeemed at most once. `deadline` bounds when it may be redeemed.
    struct Extension {
        bytes32 rentalId;
        address renter;
        uint256 addedPrice;
        uint256 fee;
        uint64 addedSeconds;
        uint64 endsAt;
        uint64 deadline;
    }

    /// @notice One paid answer (`payForMessage`): the payer signed an EIP-3009
    /// TransferWithAuthorization(from = payer, to = this escrow, value = price + fee, validAfter,
    /// validBefore, nonce) on the token's domain; `owner` is credited the price, the treasury the fee.
    struct MessagePayment {
        address payer;
        address owner;
        uint256 price;
        uint256 fee;
        uint256 validAfter;
        uint256 validBefore;
        bytes32 nonce;
    }

    /// @notice One rental of a `settleMany` batch: `refund` (0 to the price) back to the renter,
    /// `slaHash` the keccak256 of its canonical down-minute list.
    struct Settlement {
        bytes32 id;
        uint256 refund;
        bytes32 slaHash;
    }

    // Two storage slots per rental: creating one costs two fresh SSTOREs instead of three.
    // uint56 holds 72 billion USDC, uint40 over a million USDC or a timestamp until year 36812.
    struct Rental {
        // slot 0: everything `releaseMany` needs to decide whether to skip an id (`settleMany` also
        // checks the refund against the price, in slot 1, which it reads to pay out anyway)
        address renter;
        uint40 startsAt;
        uint40 endsAt;
        Status status;
        // slot 1
        address owner;
        uint56 price;
        uint40 fee;
    }

    IERC20 public immutable token;
    address public treasury;
    /// @notice Escrowed price + fee of Active and Disputed rentals plus unclaimed credits.
    /// The contract's token balance never falls below it.
    uint256 public totalOwed;

    mapping(bytes32 id => Rental) public rentals;
    /// @notice Payouts that could not be pushed (e.g. a blacklisted payee), claimable by `withdraw`.
    mapping(address payee => uint256) public credits;
    /// @notice When each rental's dispute was opened (0: never); a rental is disputed at most once.
    mapping(bytes32 id => uint256) public disputedAt;
    /// keccak256(abi.encode(payer, nonce)) of every authorization credited by `payForMessage`.
    mapping(bytes32 key => bool) private _messagesPaid;

    event RentalCreated(
        bytes32 indexed id,
        address indexed renter,
        address indexed owner,
        uint256 price,
        uint256 fee,
        uint64 startsAt,
        uint64 endsAt
    );
    /// An Active rental extended (`extendRental`): `addedPrice` + `addedFee` paid into escrow and
    /// added to the rental's price and fee; its end moved from `previousEndsAt` to `endsAt`.
    event RentalExtended(bytes32 indexed id, uint256 addedPrice, uint256 addedFee, uint64 previousEndsAt, uint64 endsAt);
    event RentalReleased(bytes32 indexed id, address indexed owner, uint256 price, uint256 fee);
    /// `refund`: the part of the price returned to the renter for the minutes the agent was down;
    /// `slaHash`: keccak256 of the canonical down-minute list the service computed it from (recorded
    /// only). Always followed, in the same transaction, by RentalReleased with the owner's part.
    event RentalSettled(bytes32 indexed id, uint256 refund, bytes32 slaHash);
    event DisputeOpened(bytes32 indexed id);
    /// `refund`: the part of the price returned to the renter. The whole price is a full refund (the
    /// fee too); 0 rejects the dispute (the rental continues, or is released if it has ended);
    /// anything between splits the price and emits RentalReleased with the owner's part.
    event DisputeResolved(bytes32 indexed id, uint256 refund, Resolution how);
    event RentalCancelled(bytes32 indexed id);
    event PayoutCredited(address indexed payee, uint256 amount);
    event Withdrawn(address indexed payee, uint256 amount);
    event TreasuryChanged(address indexed previous, address indexed current);
    /// A paid answer: `price` credited to `owner`, `fee` to the treasury (no PayoutCredited: the
    /// credits are how these payments are always paid out, by `withdraw`).
    event MessagePaid(address indexed payer, bytes32 indexed nonce, address indexed owner, uint256 price, uint256 fee);

    error ZeroAddress();
    error SenderNotRenter();
    error QuoteExpired(uint64 deadline);
    error ZeroAmount();
    error ZeroDuration();
    error RentalExists(bytes32 id);
    error InvalidSignature();
    error UnauthorizedSigner(address signer);
    error PermitFailed();
    error InvalidStatus(bytes32 id, Status status);
    error NotEnded(bytes32 id, uint64 endsAt);
    error RentalEnded(bytes32 id, uint64 endsAt);
    error NothingToWithdraw();
    error StaleExtension(bytes32 id, uint64 endsAt);
    error AlreadyDisputed(bytes32 id);
    error RefundAbovePrice(bytes32 id, uint256 refund, uint256 price);
    error SenderNotOwner();
    error DisputeNotExpired(bytes32 id, uint256 settleableAt);
    error SettlementPending(bytes32 id, uint256 releasableAt);
    error MessageAlreadyPaid(address payer, bytes32 nonce);
    error AuthorizationUsed(address payer, bytes32 nonce);

    constructor(IERC20 token_, address admin, address treasury_, address signer, address operator, address arbiter)
        EIP712("RentalEscrow", "1")
    {
        if (
            address(token_) == address(0) || admin == address(0) || treasury_ == address(0) || signer == address(0)
                || operator == address(0) || arbiter == address(0)
        ) revert ZeroAddress();
        token = token_;
        treasury = treasury_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(QUOTE_SIGNER_ROLE, signer);
        _grantRole(OPERATOR_ROLE, operator);
        _grantRole(ARBITER_ROLE, arbiter);
        emit TreasuryChanged(address(0), treasury_);
    }

    // ---------------------------------------------------------------- checkout

    /// @notice Pays price + fee (after `approve`) and starts the rental now.
    function createRental(Quote calldata q, bytes calldata signature) external nonReentrant {
        _create(q, signature);
    }

    /// @notice One-transaction checkout: `permit(renter, escrow, price + fee, permitDeadline)` then pay.
    /// A permit that fails (typically because someone already submitted it) is ignored as long as
    /// the allowance it was meant to grant is in place.
    function createRentalWithPermit(
        Quote calldata q,
        bytes calldata signature,
        uint256 permitDeadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant {
        _permit(q.renter, q.price + q.fee, permitDeadline, v, r, s);
        _create(q, signature);
    }

    /// `permit(renter, escrow, total, deadline)`; a permit that fails (typically because someone
    /// already submitted it) is ignored as long as the allowance it was meant to grant is in place.
    function _permit(address renter, uint256 total, uint256 deadline, uint8 v, bytes32 r, bytes32 s) private {
        try IERC20Permit(address(token)).permit(renter, address(this), total, deadline, v, r, s) {}
        catch {
            if (token.allowance(renter, address(this)) < total) revert PermitFailed();
        }
    }

    function _create(Quote calldata q, bytes calldata signature) private whenNotPaused {
        if (msg.sender != q.renter) revert SenderNotRenter();
        if (q.deadline < block.timestamp) revert QuoteExpired(q.deadline);
        if (q.price == 0 || q.fee == 0) revert ZeroAmount();
        if (q.duration == 0) revert ZeroDuration();
        if (q.owner == address(0)) revert ZeroAddress();
        Rental storage rental = rentals[q.rentalId];
        // Ids are never reused, so a signed quote can be redeemed at most once.
        if (rental.status != Status.None) revert RentalExists(q.rentalId);
        _checkQuoteSignature(q, signature);

        uint40 startsAt = uint40(block.timestamp);
        uint40 endsAt = SafeCast.toUint40(block.timestamp + q.duration);
        uint256 total = q.price + q.fee;
        rental.renter = q.renter;
        rental.startsAt = startsAt;
        rental.endsAt = endsAt;
        rental.status = Status.Active;
        rental.owner = q.owner;
        rental.price = SafeCast.toUint56(q.price);
        rental.fee = SafeCast.toUint40(q.fee);
        totalOwed += total;
        emit RentalCreated(q.rentalId, q.renter, q.owner, q.price, q.fee, startsAt, endsAt);

        token.safeTransferFrom(q.renter, address(this), total);
    }

    function _checkQuoteSignature(Quote calldata q, bytes calldata signature) private view {
        _checkSigner(
            keccak256(abi.encode(QUOTE_TYPEHASH, q.rentalId, q.renter, q.owner, q.price, q.fee, q.duration, q.deadline)),
            signature
        );
    }

    /// Reverts unless `signature` over the EIP-712 struct hash is a QUOTE_SIGNER's.
    function _checkSigner(bytes32 structHash, bytes calldata signature) private view {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecoverCalldata(_hashTypedDataV4(structHash), signature);
        if (err != ECDSA.RecoverError.NoError) revert InvalidSignature();
        if (!hasRole(QUOTE_SIGNER_ROLE, signer)) revert UnauthorizedSigner(signer);
    }

    // ---------------------------------------------------------------- extension

    /// @notice Pays addedPrice + fee (after `approve`) and moves a running rental's end by
    /// addedSeconds. The rental stays one rental: its price and fee grow by the amounts paid, so
    /// settlement (availability refunds), disputes and refunds apply to the whole extended length.
    function extendRental(Extension calldata e, bytes calldata signature) external nonReentrant {
        _extend(e, signature);
    }

    /// @notice One-transaction extension: `permit(renter, escrow, addedPrice + fee, permitDeadline)`
    /// then extend. A permit that fails is ignored as long as the allowance is in place.
    function extendRentalWithPermit(
        Extension calldata e,
        bytes calldata signature,
        uint256 permitDeadline,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external nonReentrant {
        _permit(e.renter, e.addedPrice + e.fee, permitDeadline, v, r, s);
        _extend(e, signature);
    }

    function _extend(Extension calldata e, bytes calldata signature) private whenNotPaused {
        if (msg.sender != e.renter) revert SenderNotRenter();
        if (e.deadline < block.timestamp) revert QuoteExpired(e.deadline);
        if (e.addedPrice == 0 || e.fee == 0) revert ZeroAmount();
        if (e.addedSeconds == 0) revert ZeroDuration();
        Rental storage rental = rentals[e.rentalId];
        // Disputed, settled, refunded or unknown rentals are not extended.
        if (rental.status != Status.Active) revert InvalidStatus(e.rentalId, rental.status);
        if (rental.renter != e.renter) revert SenderNotRenter();
        uint40 previousEndsAt = rental.endsAt;
        if (block.timestamp >= previousEndsAt) revert RentalEnded(e.rentalId, previousEndsAt);
        if (e.endsAt != previousEndsAt) revert StaleExtension(e.rentalId, previousEndsAt);
        _checkExtensionSignature(e, signature);

        uint40 endsAt = SafeCast.toUint40(uint256(previousEndsAt) + e.addedSeconds);
        uint256 total = e.addedPrice + e.fee;
        rental.endsAt = endsAt;
        rental.price = SafeCast.toUint56(uint256(rental.price) + e.addedPrice);
        rental.fee = SafeCast.toUint40(uint256(rental.fee) + e.fee);
        totalOwed += total;
        emit RentalExtended(e.rentalId, e.addedPrice, e.fee, previousEndsAt, endsAt);

        token.safeTransferFrom(e.renter, address(this), total);
    }

    function _checkExtensionSignature(Extension calldata e, bytes calldata signature) private view {
        _checkSigner(
            keccak256(
                abi.encode(
                    EXTENSION_TYPEHASH, e.rentalId, e.renter, e.addedPrice, e.fee, e.addedSeconds, e.endsAt, e.deadline
                )
            ),
            signature
        );
    }

    // ---------------------------------------------------------------- settlement

    /// @notice The operator pays out an ended Active rental by its measured availability: `refund`
    /// (at most the price, computed off chain from the down minutes) to the renter, the rest of the
    /// price to the owner, the fee to the treasury. Emits RentalSettled (recording `slaHash`, the
    /// hash of the down-minute list) and then RentalReleased with the owner's part.
    function settle(bytes32 id, uint256 refund, bytes32 slaHash) external nonReentrant onlyRole(OPERATOR_ROLE) {
        Rental storage rental = rentals[id];
        if (rental.status != Status.Active) revert InvalidStatus(id, rental.status);
        if (block.timestamp < rental.endsAt) revert NotEnded(id, rental.endsAt);
        uint256 price = rental.price;
        if (refund > price) revert RefundAbovePrice(id, refund, price);
        _pay(treasury, _settle(id, rental, refund, slaHash));
    }

    /// @notice Settles every settleable rental (Active, ended, refund at most the price) as `settle`
    /// does and skips the rest (unknown, not ended, disputed, settled, duplicates, refund above the
    /// price), so a sweep never fails on one bad id. The fees go to the treasury in one transfer.
    /// @return settled How many rentals were settled.
    function settleMany(Settlement[] calldata settlements)
        external
        nonReentrant
        onlyRole(OPERATOR_ROLE)
        returns (uint256 settled)
    {
        uint256 fees;
        for (uint256 i; i < settlements.length; ++i) {
            Settlement calldata s = settlements[i];
            Rental storage rental = rentals[s.id];
            if (rental.status != Status.Active || block.timestamp < rental.endsAt || s.refund > rental.price) continue;
            fees += _settle(s.id, rental, s.refund, s.slaHash);
            ++settled;
        }
        if (fees != 0) _pay(treasury, fees);
    }

    /// @notice Anyone pays out an Active rental the operator left unsettled for SETTLE_GRACE after
    /// its end, in full: price to the owner, fee to the treasury. Before the end NotEnded; inside
    /// the grace SettlementPending.
    function release(bytes32 id) external nonReentrant {
        Rental storage rental = rentals[id];
        if (rental.status != Status.Active) revert InvalidStatus(id, rental.status);
        if (block.timestamp < rental.endsAt) revert NotEnded(id, rental.endsAt);
        uint256 releasableAt = uint256(rental.endsAt) + SETTLE_GRACE;
        if (block.timestamp < releasableAt) revert SettlementPending(id, releasableAt);
        _release(id, rental);
    }

    /// @notice Releases every releasable id (Active, and SETTLE_GRACE past its end) and skips the
    /// rest (unknown, not ended or still in the grace, disputed, settled, duplicates), so a sweep
    /// never fails on one bad id. The fees go to the treasury in one transfer.
    /// @return released How many rentals were released.
    function releaseMany(bytes32[] calldata ids) external nonReentrant returns (uint256 released) {
        uint256 fees;
        for (uint256 i; i < ids.length; ++i) {
            Rental storage rental = rentals[ids[i]];
            if (rental.status != Status.Active || block.timestamp < uint256(rental.endsAt) + SETTLE_GRACE) continue;
            (address owner, uint256 price, uint256 fee) = (rental.owner, rental.price, rental.fee);
            rental.status = Status.Released;
            totalOwed -= price + fee;
            emit RentalReleased(ids[i], owner, price, fee);
            _pay(owner, price);
            fees += fee;
            ++released;
        }
        if (fees != 0) _pay(treasury, fees);
    }

    /// @notice The renter freezes the funds of a running rental until it is decided; once per rental.
    function openDispute(bytes32 id) external nonReentrant {
        Rental storage rental = rentals[id];
        if (rental.status != Status.Active) revert InvalidStatus(id, rental.status);
        if (msg.sender != rental.renter) revert SenderNotRenter();
        if (block.timestamp >= rental.endsAt) revert RentalEnded(id, rental.endsAt);
        if (disputedAt[id] != 0) revert AlreadyDisputed(id);
        disputedAt[id] = block.timestamp;
        rental.status = Status.Disputed;
        emit DisputeOpened(id);
    }

    /// @notice The arbiter returns `refund` (0 to the price) of the price to the renter, any time:
    /// the price is a full refund, 0 a rejection, anything between a split (see DisputeResolved).
    function resolveDispute(bytes32 id, uint256 refund) external nonReentrant onlyRole(ARBITER_ROLE) {
        Rental storage rental = _disputed(id);
        uint256 price = rental.price;
        if (refund > price) revert RefundAbovePrice(id, refund, price);
        emit DisputeResolved(id, refund, Resolution.Arbiter);
        if (refund == price) _refund(rental);
        else if (refund != 0) _split(id, rental, refund);
        else if (block.timestamp < rental.endsAt) rental.status = Status.Active;
        else _release(id, rental);
    }

    /// @notice The rental's owner accepts the dispute: the renter is refunded in full.
    function acceptDispute(bytes32 id) external nonReentrant {
        Rental storage rental = _disputed(id);
        if (msg.sender != rental.owner) revert SenderNotOwner();
        emit DisputeResolved(id, rental.price, Resolution.OwnerAccepted);
        _refund(rental);
    }

    /// @notice Anyone settles a dispute left undecided for DISPUTE_TIMEOUT: a full refund.
    function settleExpiredDispute(bytes32 id) external nonReentrant {
        Rental storage rental = _disputed(id);
        uint256 settleableAt = disputedAt[id] + DISPUTE_TIMEOUT;
        if (block.timestamp < settleableAt) revert DisputeNotExpired(id, settleableAt);
        emit DisputeResolved(id, rental.price, Resolution.Expired);
        _refund(rental);
    }

    /// @notice The operator refunds an Active rental in full (e.g. the agent could not serve it).
    function cancel(bytes32 id) external nonReentrant onlyRole(OPERATOR_ROLE) {
        Rental storage rental = rentals[id];
        if (rental.status != Status.Active) revert InvalidStatus(id, rental.status);
        emit RentalCancelled(id);
        _refund(rental);
    }

    /// @notice Claims the caller's credits. Reverts if the transfer fails, so nothing is lost.
    function withdraw() external nonReentrant {
        uint256 amount = credits[msg.sender];
        if (amount == 0) revert NothingToWithdraw();
        credits[msg.sender] = 0;
        totalOwed -= amount;
        emit Withdrawn(msg.sender, amount);
        token.safeTransfer(msg.sender, amount);
    }

    function _release(bytes32 id, Rental storage rental) private {
        (address owner, uint256 price, uint256 fee) = (rental.owner, rental.price, rental.fee);
        rental.status = Status.Released;
        totalOwed -= price + fee;
        emit RentalReleased(id, owner, price, fee);
        _pay(owner, price);
        _pay(treasury, fee);
    }

    /// Settlement by availability (`refund` already checked against the price): Released, the
    /// renter gets `refund`, the owner the rest of the price. Returns the fee, which the caller pays
    /// the treasury (`settleMany` in one transfer).
    function _settle(bytes32 id, Rental storage rental, uint256 refund, bytes32 slaHash) private returns (uint256 fee) {
        (address owner, uint256 price) = (rental.owner, rental.price);
        fee = rental.fee;
        rental.status = Status.Released;
        totalOwed -= price + fee;
        emit RentalSettled(id, refund, slaHash);
        emit RentalReleased(id, owner, price - refund, fee);
        if (refund != 0) _pay(rental.renter, refund);
        if (refund != price) _pay(owner, price - refund);
    }

    function _disputed(bytes32 id) private view returns (Rental storage rental) {
        rental = rentals[id];
        if (rental.status != Status.Disputed) revert InvalidStatus(id, rental.status);
    }

    /// A partial refund: `refund` to the renter, the rest of the price to the owner, the fee to
    /// the treasury (the service did its part).
    function _split(bytes32 id, Rental storage rental, uint256 refund) private {
        (address owner, uint256 price, uint256 fee) = (rental.owner, rental.price, rental.fee);
        rental.status = Status.Released;
        totalOwed -= price + fee;
        emit RentalReleased(id, owner, price - refund, fee);
        _pay(rental.renter, refund);
        _pay(owner, price - refund);
        _pay(treasury, fee);
    }

    function _refund(Rental storage rental) private {
        uint256 total = uint256(rental.price) + rental.fee;
        rental.status = Status.Refunded;
        totalOwed -= total;
        _pay(rental.renter, total);
    }

    /// Pushes `amount` (already deducted from totalOwed) to `payee`; if the token reverts or
    /// returns false (a blacklisted payee), keeps it owed as a credit instead of failing the
    /// settlement. trySafeTransfer copies at most 32 bytes of return data (no returnbomb), and
    /// every caller is nonReentrant with its state already written.
    function _pay(address payee, uint256 amount) private {
        if (token.trySafeTransfer(payee, amount)) return;
        credits[payee] += amount;
        totalOwed += amount;
        emit PayoutCredited(payee, amount);
    }

    // ---------------------------------------------------------------- pay per message

    /// @notice The operator redeems a caller's EIP-3009 authorization for one answer and credits
    /// `p.owner` the price and the treasury the fee, each claimed with `withdraw`. An authorization
    /// is credited at most once (MessageAlreadyPaid). If the token still holds it unused, it is
    /// submitted here (`transferWithAuthorization`, `signature` the payer's 65 bytes r, s, v); if
    /// it is used already — someone submitted it to the token directly, which moved the money
    /// here without a credit — it is credited only from money this contract holds beyond
    /// `totalOwed`, else AuthorizationUsed (a payer who cancelled it gets nothing credited). A
    /// token refusal (expired, not yet valid, the payer underfunded, a bad signature) bubbles up.
    /// New business: refused while paused.
    function payForMessage(MessagePayment calldata p, bytes calldata signature)
        external
        nonReentrant
        whenNotPaused
        onlyRole(OPERATOR_ROLE)
    {
        uint256 total = p.price + p.fee;
        if (total == 0) revert ZeroAmount();
        if (p.owner == address(0)) revert ZeroAddress();
        bytes32 key = keccak256(abi.encode(p.payer, p.nonce));
        if (_messagesPaid[key]) revert MessageAlreadyPaid(p.payer, p.nonce);
        _messagesPaid[key] = true;
        uint256 owedBefore = totalOwed;
        credits[p.owner] += p.price;
        credits[treasury] += p.fee;
        totalOwed = owedBefore + total;
        emit MessagePaid(p.payer, p.nonce, p.owner, p.price, p.fee);

        IERC3009 usdc = IERC3009(address(token));
        if (!usdc.authorizationState(p.payer, p.nonce)) {
            if (signature.length != 65) revert InvalidSignature();
            uint8 v = uint8(signature[64]);
            // Some signers give v as 0/1; the token's ECDSA expects 27/28.
            if (v < 27) v += 27;
            usdc.transferWithAuthorization(
                p.payer,
                address(this),
                total,
                p.validAfter,
                p.validBefore,
                p.nonce,
                v,
                bytes32(signature[0:32]),
                bytes32(signature[32:64])
            );
        } else if (token.balanceOf(address(this)) < owedBefore + total) {
            revert AuthorizationUsed(p.payer, p.nonce);
        }
    }

    /// @notice Whether `payForMessage` has credited the payer's authorization `nonce`.
    function messagePaid(address payer, bytes32 nonce) external view returns (bool) {
        return _messagesPaid[keccak256(abi.encode(payer, nonce))];
    }

    // ---------------------------------------------------------------- administration

    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (treasury_ == address(0)) revert ZeroAddress();
        emit TreasuryChanged(treasury, treasury_);
        treasury = treasury_;
    }

    /// @notice Stops new rentals and paid answers only; settlement, disputes and withdrawals keep working.
    /// The operator may pause (fast reaction); only the admin may unpause.
    function pause() external {
        if (!hasRole(OPERATOR_ROLE, msg.sender)) _checkRole(DEFAULT_ADMIN_ROLE);
        _pause();
    }

    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }
}
