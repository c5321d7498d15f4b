// The set-password form shows core's messages (docs/product.md §5) in this order: mismatch, then length.
import { describe, expect, it } from 'vitest';
import { newPasswordProblem } from '@tools-portal/core';

describe('the set-password check', () => {
  it('reports a mismatch first, with the words of docs/product.md §5', () => {
    expect(newPasswordProblem('short', 'other')).toBe("Your passwords don't match!");
  });

  it('reports a short password with the words of docs/product.md §5', () => {
    expect(newPasswordProblem('seven77', 'seven77')).toBe('Your password must be at least eight characters long!');
  });

  it('accepts eight characters that match', () => {
    expect(newPasswordProblem('Tr0ub4dor&3x', 'Tr0ub4dor&3x')).toBeNull();
  });
});
