import type { InputHTMLAttributes, Ref } from "react";
import { IMAGE_ACCEPT } from "../image-file.ts";

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "accept" | "className" | "tabIndex" | "onChange"> & {
  ref: Ref<HTMLInputElement>;
  /** The file the user picked. */
  onFile: (file: File) => void;
};

/**
 * The hidden file input behind an image field's own buttons (which call `ref.current.click()`): out of the tab order,
 * still read by screen readers, limited to the accepted image formats.
 */
export function ImageFileInput({ ref, onFile, ...rest }: Props) {
  return (
    <input
      ref={ref}
      className="sr-only"
      type="file"
      accept={IMAGE_ACCEPT}
      tabIndex={-1}
      {...rest}
      onChange={(e) => {
        const file = e.target.files?.[0];
        // Cleared so that choosing the same file again still fires a change.
        e.target.value = "";
        if (file) onFile(file);
      }}
    />
  );
}
