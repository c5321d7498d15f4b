/** The one page header (docs/web.md, Screens): title, one line of explanation, primary action on the right. */
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  /** One line under the title: what the page is for. */
  lead?: ReactNode;
  /** Buttons or links on the right, the primary one last. */
  actions?: ReactNode;
}

export function PageHeader({ title, lead, actions }: PageHeaderProps) {
  return (
    <header className="page-header d-flex flex-wrap align-items-start gap-2 mb-3">
      <div className="me-auto min-w-0">
        <h1 className="h3 mb-1 text-break">{title}</h1>
        {lead && <p className="text-secondary mb-0">{lead}</p>}
      </div>
      {actions && <div className="d-flex flex-wrap align-items-center gap-2">{actions}</div>}
    </header>
  );
}
