package calendar

// The event's flags are pointers because a password-protected event read
// without its password has them blanked (nil), which the REST interface
// shows as absent. These accessors read them safely: a blanked flag is false.

// MapShown reports ShowMap, false when blanked.
func (e *Event) MapShown() bool { return flag(e.ShowMap) }

// MapLinkShown reports ShowMapLink, false when blanked.
func (e *Event) MapLinkShown() bool { return flag(e.ShowMapLink) }

// HiddenFromListings reports HideFromListings, false when blanked.
func (e *Event) HiddenFromListings() bool { return flag(e.HideFromListings) }

// IsSticky reports Sticky, false when blanked.
func (e *Event) IsSticky() bool { return flag(e.Sticky) }

// IsFeatured reports Featured, false when blanked.
func (e *Event) IsFeatured() bool { return flag(e.Featured) }

func flag(b *bool) bool { return b != nil && *b }
