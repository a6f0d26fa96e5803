"use client";
// The listing form (new and edit). Posts to a server action; works without JavaScript (the
// skills are one text field, which the chips above it mirror once scripts run).
import { useActionState, useId, useState } from "react";
import type { FormState, FormValues } from "@/lib/actions/form-errors";
import { CATEGORIES, CATEGORY_SKILLS, type Category } from "@/lib/agents/categories";
import { channelName } from "@/lib/channels/channel-name";
import { categoryLabel } from "@/lib/format/category";
import { DURATION_LABEL } from "@/lib/format/duration";
import { FieldError, FormMessage } from "../_components/form-message";
import forms from "../_components/forms.module.css";
import styles from "../dashboard.module.css";
import { SkillsField, useSkills } from "./skills-field";

export type ListingValues = {
  name: string;
  description: string;
  category: string;
  skills: string[];
  channels: string[];
  pricePerHour: string;
  pricePerDay: string;
  pricePerMonth: string;
  /** USDC as text; blank: not sold per message. */
  pricePerMessage: string;
  /** Whole number as text; blank: no free trial. */
  trialMessages: string;
  /** Percent as text ("99", "99.5"). */
  guaranteePercent: string;
};

type Action = (prev: FormState | null, form: FormData) => Promise<FormState>;

const PRICES = [
  ["hour", "pricePerHour"],
  ["day", "pricePerDay"],
  ["month", "pricePerMonth"],
] as const;

const asList = (v: string | string[] | undefined, fallback: string[]) => (v === undefined ? fallback : Array.isArray(v) ? v : [v]);
const asText = (v: string | string[] | undefined, fallback: string) => (typeof v === "string" ? v : fallback);

function merge(initial: ListingValues, values: FormValues | undefined): ListingValues {
  if (!values) return initial;
  return {
    name: asText(values.name, initial.name),
    description: asText(values.description, initial.description),
    category: asText(values.category, initial.category),
    skills: asList(values.skills, initial.skills),
    channels: asList(values.channels, initial.channels),
    pricePerHour: asText(values.pricePerHour, initial.pricePerHour),
    pricePerDay: asText(values.pricePerDay, initial.pricePerDay),
    pricePerMonth: asText(values.pricePerMonth, initial.pricePerMonth),
    pricePerMessage: asText(values.pricePerMessage, initial.pricePerMessage),
    trialMessages: asText(values.trialMessages, initial.trialMessages),
    guaranteePercent: asText(values.guaranteePercent, initial.guaranteePercent),
  };
}

export function ListingForm({
  action,
  initial,
  submitLabel,
  channelOptions,
}: {
  action: Action;
  initial: ListingValues;
  submitLabel: string;
  // The channels this service runs (lib/channels/configured-channels.ts), plus any the listing
  // already has, so that saving never drops one.
  channelOptions: string[];
}) {
  const [state, formAction, pending] = useActionState(action, null);
  // Each answer remounts the fields with what was submitted (React resets a form after its action);
  // the message region above them stays, so screen readers announce the new message.
  const [version, setVersion] = useState(0);
  const [seen, setSeen] = useState(state);
  if (seen !== state) {
    setSeen(state);
    setVersion((v) => v + 1);
  }
  const id = useId();
  return (
    <form action={formAction} className={forms.form} noValidate>
      <FormMessage state={state} id={`${id}-message`} />
      <ListingFields
        key={version}
        id={id}
        values={merge(initial, state?.values)}
        channelOptions={channelOptions}
        errors={state && !state.ok ? state.fieldErrors : {}}
      />
      <div className={styles.actions}>
        <button type="submit" className="button button-primary" disabled={pending}>
          {submitLabel}
        </button>
        <span role="status" className="hint">
          {pending ? "Saving…" : ""}
        </span>
      </div>
    </form>
  );
}

function ListingFields({
  id,
  values,
  errors,
  channelOptions,
}: {
  id: string;
  values: ListingValues;
  errors: Record<string, string>;
  channelOptions: string[];
}) {
  const skills = useSkills(values.skills);
  const [category, setCategory] = useState(values.category);
  return (
    <>
      <div className={forms.grid2}>
        <TextField
          id={`${id}-name`}
          name="name"
          label="Name"
          value={values.name}
          error={errors.name}
          maxLength={60}
          required
          hint="2 to 60 characters; shown on marketplace tiles."
        />
        <CategoryField id={id} value={category} onChange={setCategory} error={errors.category} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          name="description"
          defaultValue={values.description}
          maxLength={500}
          required
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={`${id}-description-hint${errors.description ? ` ${id}-description-error` : ""}`}
        />
        <p id={`${id}-description-hint`} className="hint">
          One or two sentences on what the agent does (at most 500 characters).
        </p>
        <FieldError id={`${id}-description-error`} message={errors.description} />
      </div>
      <SkillsField id={id} error={errors.skills} skills={skills} suggested={CATEGORY_SKILLS[category as Category] ?? []} />
      <fieldset className={forms.fieldset} aria-describedby={errors.channels ? `${id}-channels-error` : undefined}>
        <legend>Channels</legend>
        <div className={forms.checks}>
          {channelOptions.map((channel) => (
            <label key={channel}>
              <input type="checkbox" name="channels" value={channel} defaultChecked={values.channels.includes(channel)} />
              {channelName(channel)}
            </label>
          ))}
        </div>
        <FieldError id={`${id}-channels-error`} message={errors.channels} />
      </fieldset>
      <fieldset className={forms.fieldset}>
        <legend>Prices in USDC (leave a price blank to disable that duration)</legend>
        <div className={forms.grid2}>
          {PRICES.map(([duration, name]) => (
            <PriceField
              key={name}
              id={`${id}-${duration}`}
              name={name}
              label={`Price ${DURATION_LABEL[duration].per}`}
              value={values[name]}
              error={errors[name]}
            />
          ))}
        </div>
        <p className="hint">Renters pay the price plus a 1 USDC service fee; you receive the price when the rental ends.</p>
      </fieldset>
      <MessagePriceField id={`${id}-message`} value={values.pricePerMessage} error={errors.pricePerMessage} />
      <TrialField id={`${id}-trial`} value={values.trialMessages} error={errors.trialMessages} />
      <GuaranteeField id={`${id}-guarantee`} value={values.guaranteePercent} error={errors.guaranteePercent} />
    </>
  );
}

function TextField(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  maxLength?: number;
  required?: boolean;
}) {
  const describedBy = [props.hint && `${props.id}-hint`, props.error && `${props.id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="text"
        defaultValue={props.value}
        maxLength={props.maxLength}
        required={props.required}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {props.hint && (
        <p id={`${props.id}-hint`} className="hint">
          {props.hint}
        </p>
      )}
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

function PriceField(props: { id: string; name: string; label: string; value: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder="blank = disabled"
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
      />
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

// One answer at a time, paid by the caller over x402 (issue 27): optional, besides the rentals.
function MessagePriceField(props: { id: string; value: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Price per message (USDC)</label>
      <input
        id={props.id}
        name="pricePerMessage"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        placeholder="blank = not sold per message"
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${props.id}-hint${props.error ? ` ${props.id}-error` : ""}`}
      />
      <p id={`${props.id}-hint`} className="hint">
        Sold one answer at a time to other AI agents and scripts over x402; blank: not sold per message. At least 0.001 USDC. You receive
        the price of each answer, withdrawn from Payouts like rental payouts.
      </p>
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

// A free trial (issue 29, docs/trials.md): each signed-in renter may send this many messages free,
// paid for by the owner. Blank ends the offer, and every running trial with it.
function TrialField(props: { id: string; value: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Free trial messages</label>
      <input
        id={props.id}
        name="trialMessages"
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="blank = no free trial"
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${props.id}-hint${props.error ? ` ${props.id}-error` : ""}`}
      />
      <p id={`${props.id}-hint`} className="hint">
        From 1 to 20: each signed-in renter may send that many messages free, once per listing. You pay for them (nothing is charged,
        nothing is paid out). Blank: no trial; clearing it ends the offer and every running trial at once.
      </p>
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

// The uptime guarantee (docs/availability.md): every minute of a rental is measured, and the
// renter gets back the price of the down minutes beyond what the guarantee allows.
function GuaranteeField(props: { id: string; value: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={props.id}>Uptime guarantee (%)</label>
      <input
        id={props.id}
        name="guaranteePercent"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${props.id}-hint${props.error ? ` ${props.id}-error` : ""}`}
      />
      <p id={`${props.id}-hint`} className="hint">
        From 90 to 99.9 (99 by default): down minutes beyond what this allows are refunded to the renter automatically.
      </p>
      <FieldError id={`${props.id}-error`} message={props.error} />
    </div>
  );
}

// The category is controlled: the skills field suggests the chosen category's tags.
function CategoryField({ id, value, onChange, error }: { id: string; value: string; onChange: (next: Category) => void; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={`${id}-category`}>Category</label>
      <select
        id={`${id}-category`}
        name="category"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-category-hint${error ? ` ${id}-category-error` : ""}`}
        onChange={(event) => onChange(event.currentTarget.value as Category)}
      >
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {categoryLabel(c)}
          </option>
        ))}
      </select>
      <p id={`${id}-category-hint`} className="hint">
        Where renters find the agent; its usual skills are suggested below.
      </p>
      <FieldError id={`${id}-category-error`} message={error} />
    </div>
  );
}
