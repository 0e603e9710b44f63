# -*- encoding: utf-8 -*-
# stub: matrix 0.4.2 ruby lib

Gem::Specification.new do |s|
  s.name = "matrix".freeze
  s.version = "0.4.2"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.require_paths = ["lib".freeze]
  s.authors = ["Marc-Andre Lafortune".freeze]
  s.bindir = "exe".freeze
  s.date = "2021-06-18"
  s.description = "An implementation of Matrix and Vector classes.".freeze
  s.email = ["ruby-core@marc-andre.ca".freeze]
  s.homepage = "https://github.com/ruby/matrix".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.5.0".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "An implementation of Matrix and Vector classes.".freeze

  s.installed_by_version = "3.3.7" if s.respond_to? :installed_by_version
end
