"use client";
import { type ReactNode, useActionState, useId } from "react";
import type { FormState } from "@/lib/actions/form-errors";
import { FormMessage } from "../_components/form-message";
import forms from "../_components/forms.module.css";

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

// Upload or remove a listing's picture. `preview` is the picture shown now (uploaded or drawn).
export function PictureForm({
  upload,
  remove,
  uploaded,
  preview,
}: {
  upload: Action;
  remove: Action;
  uploaded: boolean;
  preview: ReactNode;
}) {
  const [uploadState, uploadAction, uploading] = useActionState(upload, null);
  const [removeState, removeAction, removing] = useActionState(remove, null);
  const id = useId();
  return (
    <div className={forms.form}>
      <div className={forms.inputRow}>
        {preview}
        <p className="hint" style={{ margin: 0 }}>
          {uploaded ? "Your picture." : "A picture drawn from the listing's name, until you upload one."}
        </p>
      </div>
      <form action={uploadAction} className={forms.form}>
        <div className="field">
          <label htmlFor={`${id}-picture`}>New picture</label>
          <input id={`${id}-picture`} name="picture" type="file" accept="image/png,image/jpeg,image/webp" aria-describedby={`${id}-hint`} />
          <p id={`${id}-hint`} className="hint">
            PNG, JPEG or WebP, at most 256 KiB; square pictures look best.
          </p>
        </div>
        <p>
          <button type="submit" className="button" disabled={uploading}>
            {uploading ? "Uploading…" : "Upload picture"}
          </button>
        </p>
        <FormMessage state={uploadState} />
      </form>
      {uploaded && (
        <form action={removeAction}>
          <button type="submit" className="button button-quiet" disabled={removing}>
            Remove the picture
          </button>
          <FormMessage state={removeState} />
        </form>
      )}
    </div>
  );
}
