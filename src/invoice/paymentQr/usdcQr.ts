import { decimalAmount } from './amount.js';
import { erc20TransferUri, USDC_ON_BASE } from './eip681.js';
import { checkEvmAddress } from './evmAddress.js';
import { issue, type Built, type PaymentQrInput, type PaymentQrIssue } from './input.js';

export interface UsdcQr {
  scheme: 'eip681';
  payload: string;
  /** Printed beside the code: a wallet that cannot read EIP-681 still has everything to pay. */
  details: { address: string; network: 'Base'; chainId: 8453; token: 'USDC'; tokenAddress: string; amount: string };
}

/** USD + evm_address → an EIP-681 USDC transfer on Base; 1 cent = 10^4 USDC base units, exactly. */
export function buildUsdcQr(input: PaymentQrInput, address: string): Built<UsdcQr> {
  const issues: PaymentQrIssue[] = [];
  if (input.currency !== 'USD' || input.digits !== 2)
    issues.push(
      issue('currency', 'qr_currency_unsupported', `a USDC payment link carries USD only, not ${input.currency}`),
    );
  const checked = checkEvmAddress(address);
  if (!checked.ok) issues.push(issue('payment.evm_address', 'invalid', checked.reason));
  if (issues.length > 0 || !checked.ok) return { ok: false, issues };
  const units = input.balanceDueMinor * 10n ** BigInt(USDC_ON_BASE.decimals - input.digits);
  const payload = erc20TransferUri({
    token: USDC_ON_BASE.token,
    chainId: USDC_ON_BASE.chainId,
    to: checked.value,
    amount: units,
  });
  return {
    ok: true,
    value: {
      scheme: 'eip681',
      payload,
      details: {
        address: checked.value,
        network: USDC_ON_BASE.network,
        chainId: USDC_ON_BASE.chainId,
        token: USDC_ON_BASE.symbol,
        tokenAddress: USDC_ON_BASE.token,
        amount: decimalAmount(input.balanceDueMinor, input.digits),
      },
    },
  };
}
