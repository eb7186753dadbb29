//! HTML values made safe to display: sanitizing and relative-URI resolution.
