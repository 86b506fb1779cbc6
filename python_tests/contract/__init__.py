"""The contract: header, ABI list, exported symbols, status codes, seeds, README, version, stack."""
