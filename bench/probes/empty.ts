// Baseline probe: a bundle that loads nothing; what an ESM entry costs over `node -e 0`.
export {};
