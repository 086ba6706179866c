import { BrandName } from "./Brand.tsx";

export function Logo() {
  return (
    <span className="logo">
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="var(--brand)" />
        <circle cx="11" cy="21" r="3" fill="#fff" />
        <path d="M9 13a10 10 0 0 1 10 10" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
        <path d="M9 7a16 16 0 0 1 16 16" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" opacity=".6" />
      </svg>
      <span>
        <BrandName />
      </span>
    </span>
  );
}
