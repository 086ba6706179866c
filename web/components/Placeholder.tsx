import { Link } from "wouter";
import { paths } from "../paths.ts";

/** For screens whose issue has not landed yet. */
export function Placeholder({ title }: { title: string }) {
  return (
    <section className="container page narrow">
      <h1>{title}</h1>
      <div className="card empty-state">
        <p>This screen is on its way.</p>
        <Link href={paths.home} className="btn btn-secondary">
          Back to home
        </Link>
      </div>
    </section>
  );
}
