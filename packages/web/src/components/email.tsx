/** An email that wraps on a phone at its @ and dots, never in the middle of a word. */
import { Fragment } from 'react';

export function Email({ value }: { value: string }) {
  const parts = value.split(/(?=[@.])/);
  return (
    <span className="email">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
