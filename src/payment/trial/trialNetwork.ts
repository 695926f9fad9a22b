/**
 * The trial network: Base Sepolia and its test USDC (the EIP-712 domain "USDC"/"2", as
 * @x402/evm's default assets list it). Money on it is worthless, so every document paid on it is
 * a specimen (src/invoice/specimen.ts): a trial can never yield a usable invoice.
 */
export const TRIAL_NETWORK = 'eip155:84532';
export const TRIAL_CHAIN_ID = 84532;
export const USDC_ON_BASE_SEPOLIA = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
export const TRIAL_USDC_DOMAIN = { name: 'USDC', version: '2' } as const;

/**
 * Whether a payment on `network` is test money. Only the trial network is: the local payment
 * mode's main chain (chain id 8453, src/payment/local/) is a stand-in for Base mainnet, and its
 * documents look like production ones on purpose.
 */
export const isTrialNetwork = (network: string): boolean => network === TRIAL_NETWORK;
