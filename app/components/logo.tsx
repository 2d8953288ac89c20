import { Link } from "@remix-run/react";

export function Logo({ className = "" }: { className?: string }) {
  return (
    <Link to="/" className={`logo ${className}`}>
      <svg viewBox="0 0 40 40" width="36" height="36" aria-hidden="true">
        <rect x="4" y="8" width="32" height="24" rx="9" fill="#f8ecd9" transform="rotate(-8 20 20)" />
        <path d="M5 17c5-6 25-10 30-5v3c-6 4-9 0-15 3s-11 3-15 2z" fill="#5b3421" transform="rotate(-8 20 20)" />
        <path d="M9 19q3-3 6 0t6 0 6 0" stroke="#e2b06f" strokeWidth="2" fill="none" strokeLinecap="round" />
      </svg>
      <span className="logo__text">
        Chill<span>PB</span>
      </span>
      {/* Named "ChillPB home": the visible word first (WCAG 2.5.3). */}
      <span className="visually-hidden"> home</span>
    </Link>
  );
}
