import { useState } from "react";
import { Initials } from "./Initials.tsx";

/** A business's logo, or its initials when it has none or the image fails to load. Decorative (the name is beside it). */
export function BusinessAvatar({ name, logo, max, className = "" }: { name: string; logo: string | null | undefined; max: number; className?: string }) {
  const [broken, setBroken] = useState<string | null>(null);
  const show = logo && broken !== logo;
  return (
    <span className={`biz-avatar ${show ? "has-logo" : "no-logo"} ${className}`}>
      {show ? <img src={logo} alt="" loading="lazy" decoding="async" onError={() => setBroken(logo)} /> : <Initials name={name} max={max} />}
    </span>
  );
}
