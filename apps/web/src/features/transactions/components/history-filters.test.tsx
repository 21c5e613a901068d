/**
 * A date field follows the address, not the filters a render was drawn with: when Back lands
 * before the page drew the date it had just applied (drawn again with no day, or not drawn at
 * all), and when the page is drawn for something else before it drew that date; and it keeps a
 * date still being typed.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { ListFilters } from '../api/transactions-api';
import { HistoryFilters } from './history-filters';

const NO_FILTERS: ListFilters = { status: [] };
const queries = new QueryClient();

function filtersOn(onChange: (search: string) => void) {
  return (
    <QueryClientProvider client={queries}>
      <MemoryRouter>
        <HistoryFilters filters={{ ...NO_FILTERS }} onChange={onChange} />
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const fromField = () => screen.getByLabelText('From') as HTMLInputElement;

describe('the date fields', () => {
  it('apply a whole date, and show the address’s day again when drawn anew without it', () => {
    const onChange = vi.fn();
    const { rerender } = render(filtersOn(onChange));
    fireEvent.change(fromField(), { target: { value: '2026-11-02' } });
    expect(onChange).toHaveBeenCalledWith(expect.stringContaining('from=2026-11-02'), 'picked');
    // Back before the page drew 2026-11-02: drawn again, the address still has no day.
    rerender(filtersOn(onChange));
    expect(fromField().value).toBe('');
  });

  it('keep a date just applied when drawn for something else before the page drew it', () => {
    const onChange = vi.fn((search: string) => window.history.pushState(null, '', search));
    const { rerender } = render(filtersOn(onChange));
    try {
      fireEvent.change(fromField(), { target: { value: '2026-11-02' } });
      // The address has the day; a list arriving draws the page with the filters before it.
      rerender(filtersOn(onChange));
      expect(fromField().value).toBe('2026-11-02');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('follow Back to an address without the date, though the page is not drawn again', () => {
    const onChange = vi.fn((search: string) => window.history.pushState(null, '', search));
    render(filtersOn(onChange));
    try {
      fireEvent.change(fromField(), { target: { value: '2026-11-02' } });
      // Back: the address moves and says so (popstate); nothing draws the page.
      window.history.replaceState(null, '', '/');
      window.dispatchEvent(new PopStateEvent('popstate'));
      expect(fromField().value).toBe('');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('keep a date still being typed when the page is drawn again', () => {
    const onChange = vi.fn();
    const { rerender } = render(filtersOn(onChange));
    // Chromium's value at the year's first digit: whole, but of no era a shop has.
    fireEvent.change(fromField(), { target: { value: '0002-11-02' } });
    rerender(filtersOn(onChange));
    expect(onChange).not.toHaveBeenCalled();
    expect(fromField().value).toBe('0002-11-02');
  });
});
